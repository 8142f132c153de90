package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"
)

// tokens administers API tokens: several named tokens per user, listed with their last use,
// revocable. A revoked token stops working within 10 seconds in a running quire (its token cache).
func tokens(verb string, args []string) error {
	fs := flag.NewFlagSet("tokens "+verb, flag.ContinueOnError)
	dbPath := fs.String("db", "./quire.db", dbUsage)
	var email, name *string
	switch verb {
	case "create":
		email = fs.String("email", "", "the user the token is for")
		name = fs.String("name", "", "a label for the token (default \"default\")")
	case "list":
		email = fs.String("email", "", "the user whose tokens to list")
	case "revoke":
	default:
		return fmt.Errorf("unknown tokens command %q: create, list or revoke", verb)
	}
	if err := parseWithEnv(fs, args); err != nil {
		return err
	}
	if email != nil && *email == "" {
		return errors.New("--email is required")
	}
	if verb == "revoke" && fs.NArg() != 1 {
		return errors.New("usage: quire tokens revoke --db PATH ID")
	}
	ctx := context.Background()
	st, err := openStore(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	out := json.NewEncoder(os.Stdout)
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
	if err := st.RevokeToken(ctx, fs.Arg(0)); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "quire: revoked token %s\n", fs.Arg(0))
	return nil
}
