package server

import (
	"fmt"
	"slices"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// Merge rules: what a change request needs before it merges, set on the organization and on each
// space (which may inherit the organization's). Here they are read and answered; the store checks
// them (store.MergeRules.Check) inside the merge's transaction.

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
