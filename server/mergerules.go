package server

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Merge rules: what a change request needs before it merges, set on the organization and on each
// space (which may inherit the organization's). Rules that need reviews are kept and answered but
// not checked: quire has no reviews yet; neither is `custom` (its expression language is not
// defined for merges). The others are checked when a change request merges.

// userRules are the rules that name users; the others name none.
var userRules = []gen.MergeRuleKind{gen.MergeRuleKindRequireSpecificReviewers,
	gen.MergeRuleKindRequireOneOfSpecificReviewers, gen.MergeRuleKindAllowBypass}

func apiMergeRules(m store.MergeRules) gen.MergeRules {
	out := gen.MergeRules{Type: gen.MergeRulesType(m.Type)}
	if m.Type == "rules" {
		rules := make([]gen.MergeRule, 0, len(m.Rules))
		for _, r := range m.Rules {
			rule := gen.MergeRule{Rule: gen.MergeRuleKind(r.Rule)}
			if slices.Contains(userRules, rule.Rule) {
				users := r.Users
				if users == nil {
					users = []string{}
				}
				rule.Users = &users
			}
			if rule.Rule == gen.MergeRuleKindCustom {
				expr := r.Expression
				rule.Expression = &expr
				if r.Message != "" {
					msg := r.Message
					rule.Message = &msg
				}
			}
			rules = append(rules, rule)
		}
		out.Rules = &rules
	}
	return out
}

func storeMergeRules(m *gen.MergeRules, allowInherit bool) (*store.MergeRules, error) {
	if m == nil {
		return nil, nil
	}
	if m.Type == gen.MergeRulesTypeInherit && !allowInherit {
		return nil, store.FieldErrorf("mergeRules.type", "an organization cannot inherit merge rules")
	}
	out := &store.MergeRules{Type: string(m.Type)}
	if m.Type != gen.MergeRulesTypeRules {
		if m.Rules != nil {
			return nil, store.FieldErrorf("mergeRules.rules", `rules are only given when type is "rules"`)
		}
		return out, nil
	}
	if m.Rules == nil {
		return nil, store.FieldErrorf("mergeRules.rules", `rules are required when type is "rules"`)
	}
	for i, r := range *m.Rules {
		field := fmt.Sprintf("mergeRules.rules[%d]", i)
		rule := store.MergeRule{Rule: string(r.Rule)}
		takesUsers := slices.Contains(userRules, r.Rule)
		switch {
		case takesUsers && r.Users == nil:
			return nil, store.FieldErrorf(field+".users", "the rule %q names its users", r.Rule)
		case !takesUsers && r.Users != nil:
			return nil, store.FieldErrorf(field+".users", "the rule %q takes no users", r.Rule)
		case r.Rule == gen.MergeRuleKindCustom && r.Expression == nil:
			return nil, store.FieldErrorf(field+".expression", `the rule "custom" needs an expression`)
		case r.Rule != gen.MergeRuleKindCustom && (r.Expression != nil || r.Message != nil):
			return nil, store.FieldErrorf(field, `only the rule "custom" takes an expression and a message`)
		}
		if r.Users != nil {
			rule.Users = *r.Users
		}
		if r.Expression != nil {
			rule.Expression = *r.Expression
		}
		if r.Message != nil {
			rule.Message = *r.Message
		}
		out.Rules = append(out.Rules, rule)
	}
	return out, nil
}

// effectiveMergeRules are a space's merge rules, the organization's when it inherits them.
func (s *Server) effectiveMergeRules(ctx context.Context, sp *store.Space) (store.MergeRules, error) {
	if sp.MergeRules.Type != "inherit" {
		return sp.MergeRules, nil
	}
	org, err := s.Store.FindOrganizationByID(ctx, sp.OrganizationID)
	if err != nil {
		return store.MergeRules{}, err
	}
	return org.MergeRules, nil
}

// checkMergeRules refuses to merge a change request its space's merge rules do not let the caller
// merge yet: 403 when only its author may merge it, 409 when it lacks what the rules ask of it.
// A user an allow_bypass rule names merges whatever the rules say.
func (s *Server) checkMergeRules(ctx context.Context, sp *store.Space, cr *store.ChangeRequest) error {
	rules, err := s.effectiveMergeRules(ctx, sp)
	if err != nil || rules.Type != "rules" {
		return err
	}
	me := access.Caller(ctx).ID
	for _, r := range rules.Rules {
		if r.Rule == string(gen.MergeRuleKindAllowBypass) && slices.Contains(r.Users, me) {
			return nil
		}
	}
	for _, r := range rules.Rules {
		switch gen.MergeRuleKind(r.Rule) {
		case gen.MergeRuleKindRequireAuthorToMerge:
			if cr.CreatedBy.ID != me {
				return forbidden(fmt.Sprintf("Only the change request's author (%s) may merge it: the merge rules require the author to merge.", cr.CreatedBy.DisplayName))
			}
		case gen.MergeRuleKindRequireChangeRequestSubject:
			if strings.TrimSpace(cr.Subject) == "" {
				return store.Errorf(store.ECONFLICT, "The merge rules require a subject: give the change request one before merging it.")
			}
		case gen.MergeRuleKindRequireChangeRequestDescription:
			if !documentHasContent(cr.Description) {
				return store.Errorf(store.ECONFLICT, "The merge rules require a description: give the change request one before merging it.")
			}
		case gen.MergeRuleKindRequireUpToDateChangeRequest:
			if cr.Outdated {
				return store.Errorf(store.ECONFLICT, "The merge rules require the change request to be up to date: update it from the space's content before merging it.")
			}
		}
	}
	return nil
}

// documentHasContent tells whether a rich-text document holds any text, or a void block (an
// image, an embed) or an inline: an empty paragraph is no description.
func documentHasContent(raw json.RawMessage) bool {
	var doc any
	if len(raw) == 0 || json.Unmarshal(raw, &doc) != nil {
		return false
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch n := v.(type) {
		case map[string]any:
			if t, ok := n["text"].(string); ok && strings.TrimSpace(t) != "" {
				return true
			}
			if n["isVoid"] == true || n["object"] == "inline" {
				return true
			}
			for _, c := range n {
				if walk(c) {
					return true
				}
			}
		case []any:
			for _, c := range n {
				if walk(c) {
					return true
				}
			}
		}
		return false
	}
	return walk(doc)
}
