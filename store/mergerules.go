package store

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// MergeState is what the merge rules read of a change request about to merge: the change request
// as it stands, its reviews that are not outdated (each reviewer's latest), and who was asked.
type MergeState struct {
	ChangeRequest *ChangeRequest
	Reviews       []*Review
	Requested     []string // user ids asked to review
}

// Check tells whether the rules let a user merge a change request: nil, or the first rule unmet as
// an *Error naming it — EFORBIDDEN when only the author may merge, ECONFLICT when the change
// request lacks what a rule asks of it. A user an allow_bypass rule names merges whatever the
// other rules say; nobody else bypasses them, admins included. Rules quire cannot evaluate
// (require_agent_review: quire has no review agent; custom: its expression language is not defined
// for merges) are never met, so that a gate set is never silently open.
func (m MergeRules) Check(st MergeState, userID string) error {
	if m.Type != "rules" {
		return nil
	}
	for _, r := range m.Rules {
		if r.Rule == "allow_bypass" && slices.Contains(r.Users, userID) {
			return nil
		}
	}
	cr := st.ChangeRequest
	approved := map[string]bool{}
	changes := 0
	for _, rv := range st.Reviews {
		if rv.Status == ReviewApproved {
			approved[rv.Reviewer.ID] = true
		} else {
			changes++
		}
	}
	unmet := func(code, rule, format string, args ...any) error {
		return Errorf(code, "The merge rule %q is not met: %s", rule, fmt.Sprintf(format, args...))
	}
	for _, r := range m.Rules {
		switch r.Rule {
		case "require_author_to_merge":
			if cr.CreatedBy.ID != userID {
				return unmet(EFORBIDDEN, r.Rule, "only the change request's author (%s) may merge it.", cr.CreatedBy.DisplayName)
			}
		case "require_change_request_subject":
			if strings.TrimSpace(cr.Subject) == "" {
				return unmet(ECONFLICT, r.Rule, "give the change request a subject before merging it.")
			}
		case "require_change_request_description":
			if !DocumentHasContent(cr.Description) {
				return unmet(ECONFLICT, r.Rule, "give the change request a description before merging it.")
			}
		case "require_up_to_date_change_request":
			if cr.Outdated {
				return unmet(ECONFLICT, r.Rule, "update the change request from the space's content (it must be up to date) before merging it.")
			}
		case "require_at_least_one_review":
			if len(st.Reviews) == 0 {
				return unmet(ECONFLICT, r.Rule, "the change request needs a review of its current content.")
			}
		case "require_at_least_one_approved_review":
			if len(approved) == 0 {
				return unmet(ECONFLICT, r.Rule, "the change request needs an approved review of its current content.")
			}
		case "require_all_reviews_approved":
			if len(st.Reviews) == 0 || changes > 0 {
				return unmet(ECONFLICT, r.Rule, "every review of the change request's current content must approve it (%d of %d request changes).", changes, len(st.Reviews))
			}
			for _, u := range st.Requested {
				if !approved[u] {
					return unmet(ECONFLICT, r.Rule, "every reviewer asked must approve it (user %s has not).", u)
				}
			}
		case "require_specific_reviewers":
			for _, u := range r.Users {
				if u != cr.CreatedBy.ID && !approved[u] {
					return unmet(ECONFLICT, r.Rule, "user %s must approve the change request's current content.", u)
				}
			}
		case "require_one_of_specific_reviewers":
			if !slices.ContainsFunc(r.Users, func(u string) bool { return approved[u] }) {
				return unmet(ECONFLICT, r.Rule, "one of the users %s must approve the change request's current content.", strings.Join(r.Users, ", "))
			}
		case "require_agent_review":
			return unmet(ECONFLICT, r.Rule, "quire has no review agent, so this rule cannot be met; a user allow_bypass names can merge.")
		case "custom":
			msg := "quire does not evaluate custom merge-rule expressions, so this rule cannot be met; a user allow_bypass names can merge."
			if r.Message != "" {
				msg += " The rule says: " + r.Message
			}
			return unmet(ECONFLICT, r.Rule, "%s", msg)
		}
	}
	return nil
}

// DocumentHasContent tells whether a rich-text document holds any text, or a void block (an
// image, an embed) or an inline: an empty paragraph is no description.
func DocumentHasContent(raw json.RawMessage) bool {
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
