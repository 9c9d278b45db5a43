package gitdiff

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
)

// storedObject is an object a reader returned, handed to go-git.
type storedObject struct {
	hash plumbing.Hash
	kind plumbing.ObjectType
	data []byte
}

func (o *storedObject) Hash() plumbing.Hash           { return o.hash }
func (o *storedObject) Type() plumbing.ObjectType     { return o.kind }
func (o *storedObject) SetType(t plumbing.ObjectType) { o.kind = t }
func (o *storedObject) Size() int64                   { return int64(len(o.data)) }
func (o *storedObject) SetSize(int64)                 {}
func (o *storedObject) Reader() (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(o.data)), nil
}
func (o *storedObject) Writer() (io.WriteCloser, error) {
	return nil, errors.New("objects read from the repository are read-only")
}
