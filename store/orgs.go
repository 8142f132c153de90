package store

import (
	"encoding/json"
	"time"
)

// MergeRules say what a change request needs before it merges; stored as JSON.
type MergeRules struct {
	Type  string      `json:"type"`
	Rules []MergeRule `json:"rules,omitempty"`
}

// MergeRule is one rule of a `rules` merge-rules configuration.
type MergeRule struct {
	Rule       string   `json:"rule"`
	Users      []string `json:"users,omitempty"`      // the reviewer rules and allow_bypass
	Expression string   `json:"expression,omitempty"` // custom
	Message    string   `json:"message,omitempty"`    // custom
}

// OnboardingPreferences are what an organization's creator said in onboarding: where their docs
// come from, who reads them (nil: not said) and what they want to do with them.
type OnboardingPreferences struct {
	Source    *string  `json:"source"`
	Audience  *string  `json:"audience"`
	Interests []string `json:"interests"`
}

// Organization owns members, teams, collections and spaces.
type Organization struct {
	ID                 string
	Title              string
	Hostname           *string
	Type               string
	DefaultRole        Role
	DefaultContentSite *string
	Logo               *string
	SSO                bool
	AI                 bool
	InviteLinks        bool
	MergeRules         MergeRules
	EmailDomains       []string
	Onboarding         *OnboardingPreferences // nil when never given
	CreatedAt          time.Time

	// Set by queries that know the caller: the caller's membership. CallerRole alone cannot tell a
	// guest from a non-member (both are ""), hence CallerIsMember.
	CallerIsMember bool
	CallerRole     Role
	CallerOwnsTeam bool
}

// AgentInstructions is an organization's instructions to its docs agent.
type AgentInstructions struct {
	Instructions json.RawMessage // nil when never set
	UpdatedAt    time.Time
	UpdatedBy    string
}

// OrganizationUpdate holds the fields to change; nil leaves a field as it is. The Set* flags
// distinguish "set to null" from "leave alone" for the nullable fields.
type OrganizationUpdate struct {
	Title              *string
	EmailDomains       *[]string
	Hostname           *string
	SetDefaultRole     bool
	DefaultRole        Role
	SetDefaultContent  bool
	DefaultContentSite *string
	SetLogo            bool
	Logo               *string
	SSO                *bool
	AI                 *bool
	InviteLinks        *bool
	MergeRules         *MergeRules
	Onboarding         *OnboardingPreferences
}
