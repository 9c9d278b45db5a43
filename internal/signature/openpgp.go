package signature

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// parseOpenPGPKeys reads every armored public key block of the file (gpg
// --export --armor output, several concatenated). Outside the blocks only
// blank lines and #-comments are allowed; a private key, a block of another
// kind or a key go-crypto cannot read is an error, never a skipped key. It
// returns the keys and the line each one's block starts at.
func parseOpenPGPKeys(file string, data []byte) (openpgp.EntityList, map[*openpgp.Entity]int, error) {
	var keyring openpgp.EntityList
	lines := map[*openpgp.Entity]int{}
	text := strings.Split(string(data), "\n")
	for i := 0; i < len(text); i++ {
		line := strings.TrimSpace(text[i])
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fail := func(format string, args ...any) error {
			return &FileError{File: file, Line: i + 1, Msg: fmt.Sprintf(format, args...)}
		}
		kind, isBegin := strings.CutPrefix(line, "-----BEGIN ")
		if !isBegin || !strings.HasSuffix(kind, "-----") {
			return nil, nil, fail("is not part of an armored OpenPGP public key block (the file holds `gpg --export --armor` output; comments start with #)")
		}
		kind = strings.TrimSuffix(kind, "-----")
		end := -1
		for j := i + 1; j < len(text); j++ {
			if strings.TrimSpace(text[j]) == "-----END "+kind+"-----" {
				end = j
				break
			}
		}
		switch {
		case kind == "PGP PRIVATE KEY BLOCK":
			return nil, nil, fail("starts a PRIVATE key: remove it from the repository now and treat the key as compromised; the file holds public keys only (gpg --export --armor)")
		case kind != "PGP PUBLIC KEY BLOCK":
			return nil, nil, fail("starts a %q block; the file holds OpenPGP public key blocks only", kind)
		case end < 0:
			return nil, nil, fail("starts a public key block that has no -----END PGP PUBLIC KEY BLOCK----- line")
		}
		entities, err := readKeyBlock(strings.Join(text[i:end+1], "\n"))
		if err != nil {
			return nil, nil, fail("has a public key block that cannot be read: %v", err)
		}
		for _, e := range entities {
			lines[e] = i + 1
		}
		keyring = append(keyring, entities...)
		i = end
	}
	return keyring, lines, nil
}

// readKeyBlock decodes one armored public key block into its keys.
func readKeyBlock(block string) ([]*openpgp.Entity, error) {
	armored, err := armor.Decode(strings.NewReader(block))
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(armored.Body)
	if err != nil {
		return nil, err
	}
	packets := packet.NewReader(bytes.NewReader(body))
	var out []*openpgp.Entity
	for {
		e, err := openpgp.ReadEntity(packets)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if hasPrivateKey(e) {
			return nil, errors.New("it holds a private key: remove it from the repository now and treat the key as compromised")
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, errors.New("it holds no key")
	}
	return out, nil
}

func hasPrivateKey(e *openpgp.Entity) bool {
	if e.PrivateKey != nil {
		return true
	}
	for _, sub := range e.Subkeys {
		if sub.PrivateKey != nil {
			return true
		}
	}
	return false
}
