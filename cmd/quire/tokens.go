package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/quire-docs/quire/store"
)

// tokens administers API tokens: several named tokens per user, listed with their last use,
// revocable. A revoked token stops working within 10 seconds in a running quire (its token cache).
func tokens(verb string, args []string, stdout, stderr io.Writer) error {
	cmd := newDBCommand("tokens "+verb, dbUsage)
	var email, name *string
	var required []string
	switch verb {
	case "create":
		email = cmd.String("email", "", "the user the token is for")
		name = cmd.String("name", "", "a label for the token (default \"default\")")
		required = []string{"email"}
	case "list":
		email = cmd.String("email", "", "the user whose tokens to list")
		required = []string{"email"}
	case "revoke":
	default:
		return fmt.Errorf("unknown tokens command %q: create, list or revoke", verb)
	}
	if err := cmd.parse(args, required...); err != nil {
		return err
	}
	if verb == "revoke" && cmd.NArg() != 1 {
		return errors.New("usage: quire tokens revoke --db PATH ID")
	}
	return cmd.withStore(func(ctx context.Context, st store.Store) error {
		out := json.NewEncoder(stdout)
		switch verb {
		case "create":
			token, t, err := st.CreateToken(ctx, *email, *name)
			if err != nil {
				return err
			}
			return out.Encode(map[string]string{"id": t.ID, "name": t.Name, "token": token})
		case "list":
			list, err := st.FindTokens(ctx, *email)
			if err != nil {
				return err
			}
			for _, t := range list {
				row := map[string]any{"id": t.ID, "name": t.Name, "createdAt": t.CreatedAt.Format(time.RFC3339), "lastUsedAt": nil}
				if t.LastUsedAt != nil {
					row["lastUsedAt"] = t.LastUsedAt.Format(time.RFC3339)
				}
				if err := out.Encode(row); err != nil {
					return err
				}
			}
			return nil
		}
		if err := st.RevokeToken(ctx, cmd.Arg(0)); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "quire: revoked token %s\n", cmd.Arg(0))
		return nil
	})
}
