package gitread

import (
	"testing"

	"github.com/small-hook/small-hook/internal/gittest"
)

// repo is a real git repository of a test, dated (gittest.Repo.Dated),
// that opens as a Repository.
type repo struct{ *gittest.Repo }

func newRepo(t testing.TB) *repo {
	t.Helper()
	return &repo{gittest.New(t).Dated()}
}

func (r *repo) open() *Repository {
	r.T.Helper()
	return r.openWith(nil)
}

// openWith opens the repository with env as the environment git would
// give a hook.
func (r *repo) openWith(env map[string]string) *Repository {
	r.T.Helper()
	g, err := Open(r.Dir, Options{Getenv: func(k string) string { return env[k] }})
	if err != nil {
		r.T.Fatal(err)
	}
	return g
}
