package gitsync

import (
	"context"
	"errors"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage/memory"
)

// Head answers the commit a remote's branch is at ("" when the branch or the repository is
// empty), without cloning: one listing of the remote's refs (git ls-remote), through the guard as
// a clone goes.
func Head(ctx context.Context, g Guard, r Remote) (string, error) {
	ctx, st, done, err := g.begin(ctx, r, time.Minute)
	if err != nil {
		return "", err
	}
	defer done()
	auth, via, err := st.transport(r)
	if err != nil {
		return "", err
	}
	remote := git.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: "origin", URLs: []string{r.URL}})
	refs, err := remote.ListContext(ctx, &git.ListOptions{Auth: auth, ProxyOptions: via})
	if errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return "", nil
	}
	if err != nil {
		return "", explainGit(r, err)
	}
	for _, ref := range refs {
		if ref.Name() == r.Branch() {
			return ref.Hash().String(), nil
		}
	}
	return "", nil
}
