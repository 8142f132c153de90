package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/quire-docs/quire/server"
	"github.com/quire-docs/quire/store"
)

// integrationSigningSecret prints the secret an integration's event deliveries are signed with:
// what its author's tunnel checks the X-GitBook-Signature header against. The secret is kept
// sealed under the server secret of the database's settings, so reading it needs the database.
func integrationSigningSecret(args []string, stdout io.Writer) error {
	cmd := newDBCommand("integrations signing-secret", dbUsage)
	if err := cmd.parse(args); err != nil {
		return err
	}
	if cmd.NArg() != 1 {
		return errors.New("usage: quire integrations signing-secret --db PATH NAME")
	}
	return cmd.withStore(func(ctx context.Context, st store.Store) error {
		serverSecret, err := st.Setting(ctx, "visitor_secret")
		if err != nil {
			return err
		}
		if serverSecret == "" {
			return errors.New("this database has no server secret yet: start quire serve on it once")
		}
		in, err := st.FindIntegrationByName(ctx, cmd.Arg(0))
		if err != nil {
			return err
		}
		secret, err := server.Unseal([]byte(serverSecret), in.SealedSigningSecret)
		if err != nil {
			return fmt.Errorf("unable to open the signing secret: %w", err)
		}
		return json.NewEncoder(stdout).Encode(map[string]string{"integration": in.Name, "signingSecret": string(secret)})
	})
}
