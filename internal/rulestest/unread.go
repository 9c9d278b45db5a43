package rulestest

import "github.com/small-hook/small-hook/internal/changes"

// Unread returns a copy of u that leaves every version unread
// (changes.Blob.Unread), with a Loader that reads them from u's versions:
// the unit a reader builds from a commit of many files, for a check that
// must judge it as it judges u.
func Unread(u changes.Unit) changes.Unit {
	held := heldVersions{}
	out := u
	out.Changes = make([]changes.Change, len(u.Changes))
	for i, ch := range u.Changes {
		out.Changes[i], _ = ch.MapVersions(func(b *changes.Blob) (*changes.Blob, error) {
			if b.Kind == changes.KindSubmodule {
				return b, nil
			}
			placeholder := &changes.Blob{Hash: b.Hash, Kind: b.Kind, Unread: true}
			held[placeholder] = b
			return placeholder, nil
		})
	}
	out.Loader = held
	return out
}

// heldVersions reads the versions Unread left unread: each placeholder
// gives the version it stands for.
type heldVersions map[*changes.Blob]*changes.Blob

func (h heldVersions) Read(chs []*changes.Change, limit int) ([]changes.Change, error) {
	var out []changes.Change
	bytes := 0
	for _, ch := range chs {
		if len(out) > 0 && bytes >= limit {
			break
		}
		read, _ := ch.MapVersions(func(b *changes.Blob) (*changes.Blob, error) {
			if v, ok := h[b]; ok {
				return v, nil
			}
			return b, nil
		})
		out = append(out, read)
		bytes += read.Bytes()
	}
	return out, nil
}
