package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/quire-docs/quire/store"
)

const orgColumns = `o.id, o.title, o.hostname, o.type, o.default_role, o.default_content_site, o.logo,
	o.sso, o.ai, o.invite_links, o.merge_rules, o.created_at, o.onboarding_preferences,
	(SELECT COALESCE(json_group_array(domain), '[]') FROM (SELECT d.domain FROM organization_email_domains d
		WHERE d.organization_id = o.id ORDER BY d.position) AS ds)`

// orgCallerColumns follow orgColumns where the caller is known (bound as the first argument).
const orgCallerColumns = `, m.user_id IS NOT NULL, m.role,
	EXISTS (SELECT 1 FROM team_members tm JOIN teams t ON t.id = tm.team_id
		WHERE t.organization_id = o.id AND tm.user_id = m.user_id AND tm.role = 'owner')`

func scanOrg(sc interface{ Scan(...any) error }, o *store.Organization, withCaller bool) error {
	var hostname, defRole, defSite, logo, onboarding sql.NullString
	var merge, created, domains string
	dest := []any{&o.ID, &o.Title, &hostname, &o.Type, &defRole, &defSite, &logo,
		&o.SSO, &o.AI, &o.InviteLinks, &merge, &created, &onboarding, &domains}
	var callerRole sql.NullString
	if withCaller {
		dest = append(dest, &o.CallerIsMember, &callerRole, &o.CallerOwnsTeam)
	}
	if err := sc.Scan(dest...); err != nil {
		return err
	}
	o.Hostname, o.DefaultContentSite, o.Logo = stringPtr(hostname), stringPtr(defSite), stringPtr(logo)
	o.DefaultRole = store.Role(defRole.String)
	o.CallerRole = store.Role(callerRole.String)
	o.CreatedAt = parseTime(created)
	if err := json.Unmarshal([]byte(merge), &o.MergeRules); err != nil {
		return fmt.Errorf("store: bad merge rules of organization %s: %w", o.ID, err)
	}
	if onboarding.Valid {
		if err := json.Unmarshal([]byte(onboarding.String), &o.Onboarding); err != nil {
			return fmt.Errorf("store: bad onboarding preferences of organization %s: %w", o.ID, err)
		}
	}
	if err := json.Unmarshal([]byte(domains), &o.EmailDomains); err != nil {
		return fmt.Errorf("store: bad email domains of organization %s: %w", o.ID, err)
	}
	return nil
}

// CreateOrganization creates an organization whose only member, an admin, is the creator.
func (s *Store) CreateOrganization(ctx context.Context, title, creatorID string) (*store.Organization, error) {
	id := store.NewID()
	err := s.write(ctx, func(tx *Tx) error {
		now := formatTime(tx.now)
		if _, err := tx.ExecContext(ctx, `INSERT INTO organizations (id, title, created_at) VALUES (?, ?, ?)`,
			id, title, now); err != nil {
			return fmt.Errorf("store: unable to create organization: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO members (organization_id, user_id, role, joined_at)
			VALUES (?, ?, 'admin', ?)`, id, creatorID, now); err != nil {
			return fmt.Errorf("store: unable to add organization admin: %w", err)
		}
		auditCreatedOrganization(ctx, id)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.FindOrganizationForMember(ctx, id, creatorID)
}

// FindOrganizationForMember returns an organization with the caller's membership, or ENOTFOUND
// when it does not exist or the caller is not a member: outsiders cannot tell the two apart.
func (s *Store) FindOrganizationForMember(ctx context.Context, id, userID string) (*store.Organization, error) {
	return findOrganizationForMember(ctx, s.reader, id, userID)
}

func findOrganizationForMember(ctx context.Context, q querier, id, userID string) (*store.Organization, error) {
	var o store.Organization
	err := scanOrg(q.QueryRowContext(ctx, `SELECT `+orgColumns+orgCallerColumns+`
		FROM organizations o JOIN members m ON m.organization_id = o.id AND m.user_id = ?
		WHERE o.id = ?`, userID, id), &o, true)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Organization")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find organization: %w", err)
	}
	return &o, nil
}

// FindOrganizationByID returns an organization whatever the caller (for joining by domain).
func (s *Store) FindOrganizationByID(ctx context.Context, id string) (*store.Organization, error) {
	var o store.Organization
	err := scanOrg(s.reader.QueryRowContext(ctx, `SELECT `+orgColumns+` FROM organizations o WHERE o.id = ?`, id), &o, false)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Organization")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find organization: %w", err)
	}
	return &o, nil
}

// FindOrganizationsForUser lists the organizations a user is a member of, oldest first.
func (s *Store) FindOrganizationsForUser(ctx context.Context, userID string, p store.Page) (store.List[*store.Organization], error) {
	q := &listQuery{cols: orgColumns + orgCallerColumns, from: `members m`, join: ` JOIN organizations o ON o.id = m.organization_id`,
		order: byKeys(`o.created_at`, `o.id`)}
	q.and(`m.user_id = ?`, userID)
	return findList(ctx, s.reader, q, p, "organizations", scanOrgWithCaller)
}

// FindOrganizationsByEmailDomain lists the organizations that allow members of an email domain,
// each with the user's membership where there is one.
func (s *Store) FindOrganizationsByEmailDomain(ctx context.Context, domain, userID string) ([]*store.Organization, error) {
	return queryAll(ctx, s.reader, "organizations by domain", `SELECT `+orgColumns+orgCallerColumns+`
		FROM organization_email_domains d
		JOIN organizations o ON o.id = d.organization_id
		LEFT JOIN members m ON m.organization_id = o.id AND m.user_id = ?
		WHERE d.domain = ?
		ORDER BY o.created_at, o.id LIMIT 1000`, []any{userID, strings.ToLower(domain)}, scanOrgWithCaller)
}

// scanOrgWithCaller scans an organization read with orgCallerColumns.
func scanOrgWithCaller(sc scanner) (*store.Organization, error) {
	o := &store.Organization{}
	return o, scanOrg(sc, o, true)
}

// UpdateOrganization applies an update and returns the organization as the caller sees it.
func (s *Store) UpdateOrganization(ctx context.Context, id, callerID string, upd store.OrganizationUpdate) (*store.Organization, error) {
	err := s.write(ctx, func(tx *Tx) error {
		if upd.SetDefaultContent && upd.DefaultContentSite != nil {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sites WHERE id = ? AND organization_id = ?`,
				*upd.DefaultContentSite, id).Scan(&n); err != nil {
				return fmt.Errorf("store: unable to check default content: %w", err)
			}
			if n == 0 {
				return store.FieldErrorf("defaultContent.site", "no site %q in this organization", *upd.DefaultContentSite)
			}
		}
		set := func(col string, v any) error {
			_, err := tx.ExecContext(ctx, `UPDATE organizations SET `+col+` = ? WHERE id = ?`, v, id)
			return err
		}
		var err error
		if upd.Title != nil {
			err = errors.Join(err, set("title", *upd.Title))
		}
		if upd.Hostname != nil {
			if e := set("hostname", strings.ToLower(*upd.Hostname)); e != nil {
				if s.d.uniqueViolation(e) {
					return store.ErrorAt(store.ECONFLICT, "hostname", "%q is taken by another organization", *upd.Hostname)
				}
				err = errors.Join(err, e)
			}
		}
		if upd.SetDefaultRole {
			err = errors.Join(err, set("default_role", nullRole(upd.DefaultRole)))
		}
		if upd.SetDefaultContent {
			err = errors.Join(err, set("default_content_site", nullString(upd.DefaultContentSite)))
		}
		if upd.SetLogo {
			err = errors.Join(err, set("logo", nullString(upd.Logo)))
		}
		if upd.SSO != nil {
			if e := checkSSOOff(ctx, tx, id, *upd.SSO); e != nil {
				return e
			}
			err = errors.Join(err, set("sso", *upd.SSO))
		}
		if upd.AI != nil {
			err = errors.Join(err, set("ai", *upd.AI))
		}
		if upd.InviteLinks != nil {
			err = errors.Join(err, set("invite_links", *upd.InviteLinks))
		}
		if upd.MergeRules != nil {
			b, _ := json.Marshal(upd.MergeRules)
			err = errors.Join(err, set("merge_rules", string(b)))
		}
		if upd.Onboarding != nil {
			b, _ := json.Marshal(upd.Onboarding)
			err = errors.Join(err, set("onboarding_preferences", string(b)))
		}
		if upd.EmailDomains != nil {
			if _, e := tx.ExecContext(ctx, `DELETE FROM organization_email_domains WHERE organization_id = ?`, id); e != nil {
				err = errors.Join(err, e)
			}
			seen := map[string]bool{}
			for i, d := range *upd.EmailDomains {
				d = strings.ToLower(d)
				if seen[d] {
					continue
				}
				seen[d] = true
				if _, e := tx.ExecContext(ctx, `INSERT INTO organization_email_domains (organization_id, domain, position)
					VALUES (?, ?, ?)`, id, d, i); e != nil {
					err = errors.Join(err, e)
				}
			}
		}
		if err != nil {
			return fmt.Errorf("store: unable to update organization: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.FindOrganizationForMember(ctx, id, callerID)
}

// FindAgentInstructions returns an organization's agent instructions (Instructions nil if unset).
func (s *Store) FindAgentInstructions(ctx context.Context, orgID string) (*store.AgentInstructions, error) {
	var doc, at, by sql.NullString
	var created string
	err := s.reader.QueryRowContext(ctx, `SELECT instructions, instructions_updated_at, instructions_updated_by, created_at
		FROM organizations WHERE id = ?`, orgID).Scan(&doc, &at, &by, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Organization")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read agent instructions: %w", err)
	}
	ai := &store.AgentInstructions{UpdatedAt: parseTime(created), UpdatedBy: by.String}
	if doc.Valid {
		ai.Instructions = json.RawMessage(doc.String)
	}
	if at.Valid {
		ai.UpdatedAt = parseTime(at.String)
	}
	return ai, nil
}

// UpdateAgentInstructions stores an organization's agent instructions.
func (s *Store) UpdateAgentInstructions(ctx context.Context, orgID, userID string, doc json.RawMessage) (*store.AgentInstructions, error) {
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE organizations
			SET instructions = ?, instructions_updated_at = ?, instructions_updated_by = ? WHERE id = ?`,
			string(doc), formatTime(tx.now), userID, orgID); err != nil {
			return fmt.Errorf("store: unable to update agent instructions: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.FindAgentInstructions(ctx, orgID)
}
