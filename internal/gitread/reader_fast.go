package gitread

import (
	"errors"
	"fmt"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// fastReader is small-hook's own reading of a repository: loose and packed
// objects (objectStore), the index file (parseIndexWith) and HEAD (go-git's
// reading of the refs files). It serves a run only when the probe at Open
// has found nothing it does not read as git does; then it reads
// everything, with no fallback to anything else.
type fastReader struct {
	objects *objectStore
	refs    *filesystem.Storage
	// indexPath is the index file; indexData its bytes, mapped by the
	// probe (nil when there is no index).
	indexPath string
	indexData []byte
	// indexChecked waits for the verification of the index's checksum,
	// which runs while the index is decoded.
	indexChecked func() error
	// indexCommon (or why it could not be decoded) and indexAll are the
	// index decoded for most scopes, by the probe, and for every path
	// (see index).
	indexCommon, indexAll *IndexFile
	indexCommonErr        error
	// release unmaps the index.
	release func() error
	// noIndex says the repository was opened without its index
	// (Options.NoIndex).
	noIndex bool
}

func (f *fastReader) Name() string { return ReaderFast }

func (f *fastReader) Object(h plumbing.Hash, prefix int64) (plumbing.ObjectType, []byte, []byte, error) {
	return f.objects.readHashingPrefix(h, prefix)
}

func (f *fastReader) BlobSize(h plumbing.Hash) (int64, bool) { return f.objects.blobSize(h) }

func (f *fastReader) Head() (plumbing.Hash, string, error) {
	ref, err := f.refs.Reference(plumbing.HEAD)
	if err != nil {
		return plumbing.ZeroHash, "", fmt.Errorf("reading HEAD: %w", err)
	}
	branch := ""
	for i := 0; ref.Type() == plumbing.SymbolicReference; i++ {
		if i == 5 {
			return plumbing.ZeroHash, "", errors.New("reading HEAD: symbolic references nested too deeply")
		}
		if branch == "" {
			branch = ref.Target().String()
		}
		target, err := f.refs.Reference(ref.Target())
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			return plumbing.ZeroHash, branch, nil
		}
		if err != nil {
			return plumbing.ZeroHash, "", fmt.Errorf("reading %s: %w", ref.Target(), err)
		}
		ref = target
	}
	return ref.Hash(), branch, nil
}

// Index reads the entries of the index whose paths are in scope, and its
// cache tree. The probe has decoded the file for the paths that may be
// governed and the files at the root (the configuration), which serves
// every scope but All and the scopes whose Only or Policy paths name other
// paths.
func (f *fastReader) Index(scope Scope) (*IndexFile, error) {
	if f.noIndex {
		return nil, errors.New("the index was not read: the repository was opened without it (gitdiff.Options.NoIndex)")
	}
	if f.indexData == nil {
		return &IndexFile{}, nil
	}
	checked := func(idx *IndexFile, err error) (*IndexFile, error) {
		// A wrong checksum explains a decoding error better than the
		// error does.
		if sumErr := f.indexChecked(); sumErr != nil {
			err = sumErr
		}
		if err != nil {
			return nil, fmt.Errorf("index %s: %w", f.indexPath, err)
		}
		return idx, nil
	}
	parse := func(keep func([]byte) bool, byDirectory bool) (*IndexFile, error) {
		return checked(parseIndexWith(f.indexData, keep, byDirectory))
	}
	switch {
	case scope.All:
		if f.indexAll == nil {
			idx, err := parse(scope.contains, false)
			if err != nil {
				return nil, err
			}
			f.indexAll = idx
		}
		return f.indexAll, nil
	case scope.Only != nil && slices.ContainsFunc(scope.Only, outOfCommonScope),
		slices.ContainsFunc(scope.Policy, outOfCommonScope):
		return parse(scope.contains, false)
	}
	idx, err := checked(f.indexCommon, f.indexCommonErr)
	if err != nil {
		return nil, err
	}
	return idx.within(scope), nil
}

// Twin reads objects and HEAD; a range, the only user of twins, reads no
// index.
func (f *fastReader) Twin() Reader {
	return &fastReader{objects: newObjectStore(f.objects.dir), refs: f.refs, indexPath: f.indexPath, noIndex: f.noIndex}
}

func (f *fastReader) Close() error {
	errs := []error{f.objects.close()}
	// The checksum is verified on another goroutine, from the mapping.
	if f.indexChecked != nil {
		f.indexChecked()
	}
	if f.release != nil {
		errs = append(errs, f.release())
	}
	f.release, f.indexData, f.indexCommon, f.indexAll, f.indexChecked = nil, nil, nil, nil, nil
	return errors.Join(errs...)
}
