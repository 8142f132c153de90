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
	ctx, err := g.context(ctx, r)
	if err != nil {
		return "", err
	}
	timeout, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	remote := git.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: "origin", URLs: []string{r.URL}})
	refs, err := remote.ListContext(timeout, &git.ListOptions{Auth: r.auth()})
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
