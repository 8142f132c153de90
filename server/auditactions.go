package server

import "sort"

// auditAction is what an audit event says was done: a stable id (GitBook's where its audit log
// names the action: organization.settings.updated, organization.link-invite.created,
// organization.team.member-added, site.redirect.created…, in the same resource.verb form where it
// does not) and a label for people.
type auditAction struct {
	ID, Label string
}

// samlSignInAction is recorded by a SAML sign-in (the ACS, outside the API).
var samlSignInAction = auditAction{"organization.member.sso-signed-in", "Signed in with SAML SSO"}

// notAudited are the API's non-GET operations that change nothing anyone audits: reads sent as
// POST (computed content, searches, URL resolution, aggregates), a visitor's page-view events and
// a member's last-seen ping.
var notAudited = map[string]bool{
	"getComputedRevision":                true,
	"getComputedDocument":                true,
	"resolvePublishedContentByUrl":       true,
	"searchSiteContent":                  true,
	"prewarmSiteSearch":                  true,
	"aggregateSiteEvents":                true,
	"trackEventsInSiteById":              true,
	"updateOrganizationMemberLastSeenAt": true,
}

// auditActions names the action of every other non-GET operation (TestAuditActionsCoverTheSpec
// fails when one has none).
var auditActions = map[string]auditAction{
	"createOrganization":                   {"organization.created", "Created organization"},
	"updateOrganizationById":               {"organization.settings.updated", "Updated organization settings"},
	"updateOrganizationAgentInstructions":  {"organization.agent-instructions.updated", "Updated organization agent instructions"},
	"createOrganizationInvite":             {"organization.link-invite.created", "Created organization invite link"},
	"updateOrganizationInviteById":         {"organization.link-invite.updated", "Updated organization invite link"},
	"deleteOrganizationInviteById":         {"organization.link-invite.deleted", "Deleted organization invite link"},
	"inviteUsersToOrganization":            {"organization.member.invited", "Invited organization members"},
	"joinOrganizationWithInvite":           {"organization.member.joined-with-invite", "Joined organization with an invite"},
	"joinOrganization":                     {"organization.member.joined", "Joined organization"},
	"updateMemberInOrganizationById":       {"organization.member.updated", "Updated organization member"},
	"removeMemberFromOrganizationById":     {"organization.member.removed", "Removed organization member"},
	"setUserAsSSOMemberForOrganization":    {"organization.member.sso-updated", "Updated organization member's SSO"},
	"createOrganizationTeam":               {"organization.team.created", "Created organization team"},
	"updateTeamInOrganizationById":         {"organization.team.updated", "Updated organization team"},
	"removeTeamFromOrganizationById":       {"organization.team.deleted", "Deleted organization team"},
	"updateMembersInOrganizationTeam":      {"organization.team.member-updated", "Updated organization team member"},
	"addMemberToOrganizationTeamById":      {"organization.team.member-added", "Added organization team member"},
	"deleteMemberFromOrganizationTeamById": {"organization.team.member-removed", "Removed organization team member"},
	"createOrganizationSAMLProvider":       {"organization.saml-provider.created", "Created SAML provider"},
	"updateOrganizationSAMLProvider":       {"organization.saml-provider.updated", "Updated SAML provider"},
	"deleteOrganizationSAMLProvider":       {"organization.saml-provider.deleted", "Deleted SAML provider"},
	"ingestConversation":                   {"organization.conversation.ingested", "Ingested conversation"},
	"startImportRun":                       {"organization.import.started", "Started import"},
	"cancelImportRun":                      {"organization.import.cancelled", "Cancelled import"},
	"generateStorageUploadURL":             {"organization.upload.created", "Created file upload"},
	"createCustomFont":                     {"organization.font.created", "Created custom font"},
	"updateCustomFont":                     {"organization.font.updated", "Updated custom font"},
	"deleteCustomFont":                     {"organization.font.deleted", "Deleted custom font"},

	"createCollection":                 {"collection.created", "Created collection"},
	"updateCollectionById":             {"collection.updated", "Updated collection"},
	"deleteCollectionById":             {"collection.deleted", "Deleted collection"},
	"moveCollection":                   {"collection.moved", "Moved collection"},
	"transferCollection":               {"collection.transferred", "Transferred collection"},
	"inviteToCollection":               {"collection.permission.created", "Granted collection permission"},
	"updateUserPermissionInCollection": {"collection.permission.updated", "Updated collection permission"},
	"removeUserFromCollection":         {"collection.permission.deleted", "Removed collection permission"},
	"updateTeamPermissionInCollection": {"collection.permission.updated", "Updated collection permission"},
	"removeTeamFromCollection":         {"collection.permission.deleted", "Removed collection permission"},

	"createSpace":                 {"space.created", "Created space"},
	"updateSpaceById":             {"space.updated", "Updated space"},
	"deleteSpaceById":             {"space.deleted", "Deleted space"},
	"restoreSpace":                {"space.restored", "Restored space"},
	"duplicateSpace":              {"space.duplicated", "Duplicated space"},
	"moveSpace":                   {"space.moved", "Moved space"},
	"transferSpace":               {"space.transferred", "Transferred space"},
	"applyTemplateToSpace":        {"space.template.applied", "Applied template to space"},
	"importGitRepository":         {"space.git.imported", "Imported space from Git"},
	"exportToGitRepository":       {"space.git.exported", "Exported space to Git"},
	"inviteToSpace":               {"space.permission.created", "Granted space permission"},
	"updateUserPermissionInSpace": {"space.permission.updated", "Updated space permission"},
	"removeUserFromSpace":         {"space.permission.deleted", "Removed space permission"},
	"updateTeamPermissionInSpace": {"space.permission.updated", "Updated space permission"},
	"removeTeamFromSpace":         {"space.permission.deleted", "Removed space permission"},
	"postCommentInSpace":          {"space.comment.created", "Posted comment"},
	"updateCommentInSpace":        {"space.comment.updated", "Updated comment"},
	"deleteCommentInSpace":        {"space.comment.deleted", "Deleted comment"},
	"postCommentReplyInSpace":     {"space.comment.reply-created", "Replied to comment"},
	"updateCommentReplyInSpace":   {"space.comment.reply-updated", "Updated comment reply"},
	"deleteCommentReplyInSpace":   {"space.comment.reply-deleted", "Deleted comment reply"},

	"createChangeRequest":                      {"change-request.created", "Created change request"},
	"updateChangeRequestById":                  {"change-request.updated", "Updated change request"},
	"mergeChangeRequest":                       {"change-request.merged", "Merged change request"},
	"updateChangeRequest":                      {"change-request.rebased", "Updated change request from main"},
	"updateChangeRequestContent":               {"change-request.content.updated", "Edited change request content"},
	"requestReviewersForChangeRequest":         {"change-request.reviewer.requested", "Requested change request reviewers"},
	"removeRequestedReviewerFromChangeRequest": {"change-request.reviewer.removed", "Removed change request reviewer"},
	"submitChangeRequestReview":                {"change-request.review.submitted", "Submitted change request review"},
	"postCommentInChangeRequest":               {"change-request.comment.created", "Posted comment"},
	"updateCommentInChangeRequest":             {"change-request.comment.updated", "Updated comment"},
	"deleteCommentInChangeRequest":             {"change-request.comment.deleted", "Deleted comment"},
	"postCommentReplyInChangeRequest":          {"change-request.comment.reply-created", "Replied to comment"},
	"updateCommentReplyInChangeRequest":        {"change-request.comment.reply-updated", "Updated comment reply"},
	"deleteCommentReplyInChangeRequest":        {"change-request.comment.reply-deleted", "Deleted comment reply"},

	"createSite":                         {"site.created", "Created site"},
	"updateSiteById":                     {"site.updated", "Updated site"},
	"deleteSiteById":                     {"site.deleted", "Deleted site"},
	"publishSite":                        {"site.published", "Published site"},
	"unpublishSite":                      {"site.unpublished", "Unpublished site"},
	"updateSiteAdaptiveSchema":           {"site.adaptive-schema.updated", "Updated site adaptive schema"},
	"inviteToSite":                       {"site.permission.created", "Granted site permission"},
	"updateUserPermissionInSite":         {"site.permission.updated", "Updated site permission"},
	"removeUserFromSite":                 {"site.permission.deleted", "Removed site permission"},
	"updateTeamPermissionInSite":         {"site.permission.updated", "Updated site permission"},
	"removeTeamFromSite":                 {"site.permission.deleted", "Removed site permission"},
	"addSpaceToSite":                     {"site.site-space.created", "Added space to site"},
	"updateSiteSpaceById":                {"site.site-space.updated", "Updated site space"},
	"deleteSiteSpaceById":                {"site.site-space.deleted", "Removed space from site"},
	"moveSiteSpace":                      {"site.site-space.moved", "Moved site space"},
	"addSectionToSite":                   {"site.section.created", "Created site section"},
	"updateSiteSectionById":              {"site.section.updated", "Updated site section"},
	"deleteSiteSectionById":              {"site.section.deleted", "Deleted site section"},
	"moveSiteSection":                    {"site.section.moved", "Moved site section"},
	"addSectionGroupToSite":              {"site.section-group.created", "Created site section group"},
	"updateSiteSectionGroupById":         {"site.section-group.updated", "Updated site section group"},
	"deleteSiteSectionGroupById":         {"site.section-group.deleted", "Deleted site section group"},
	"addSectionToGroup":                  {"site.section-group.section-added", "Added section to group"},
	"removeSectionFromGroup":             {"site.section-group.section-removed", "Removed section from group"},
	"createSiteRedirect":                 {"site.redirect.created", "Created site redirect"},
	"bulkUpsertSiteRedirects":            {"site.redirect.updated", "Updated site redirects"},
	"updateSiteRedirectById":             {"site.redirect.updated", "Updated site redirects"},
	"deleteSiteRedirectById":             {"site.redirect.deleted", "Deleted site redirect"},
	"createSiteShareLink":                {"site.share-link.created", "Created site share link"},
	"updateSiteShareLinkById":            {"site.share-link.updated", "Updated site share link"},
	"deleteSiteShareLinkById":            {"site.share-link.deleted", "Deleted site share link"},
	"updateSiteCustomizationById":        {"site.customization.updated", "Updated site customization"},
	"overrideSiteSpaceCustomizationById": {"site.site-space.customization-updated", "Updated site space customization"},
	"deleteSiteSpaceCustomizationById":   {"site.site-space.customization-deleted", "Reset site space customization"},
	"updateSitePublishingAuthById":       {"site.publishing-auth.updated", "Updated site authentication"},
	"addExternalLinkToSite":              {"site.external-link.created", "Added external link to site"},
	"updateSiteExternalLinkById":         {"site.external-link.updated", "Updated site external link"},
	"deleteSiteExternalLinkById":         {"site.external-link.deleted", "Removed external link from site"},
	"sortSiteStructure":                  {"site.structure.sorted", "Reordered site structure"},
	"moveSiteSectionGroup":               {"site.section-group.moved", "Moved site section group"},
	"duplicateSiteSpace":                 {"site.site-space.duplicated", "Duplicated site space"},
	"applyTemplateToSite":                {"site.template.applied", "Applied template to site"},
	"regenerateSitePublishingAuthById":   {"site.publishing-auth.regenerated", "Regenerated site authentication secret"},
	"dnsRevalidateCustomHostname":        {"site.custom-hostname.revalidated", "Checked custom hostname"},
	"removeCustomHostname":               {"site.custom-hostname.removed", "Removed custom hostname"},

	"createTranslation":     {"translation.created", "Created translation"},
	"updateTranslation":     {"translation.updated", "Updated translation"},
	"deleteTranslation":     {"translation.deleted", "Deleted translation"},
	"runTranslation":        {"translation.run", "Ran translation"},
	"updateGlossaryEntries": {"translation.glossary.updated", "Updated translation glossary"},

	"createOpenAPISpec":               {"openapi-spec.created", "Created OpenAPI specification"},
	"createOrUpdateOpenAPISpecBySlug": {"openapi-spec.updated", "Updated OpenAPI specification"},
	"updateOpenAPISpecBySlug":         {"openapi-spec.updated", "Updated OpenAPI specification"},
	"deleteOpenAPISpecBySlug":         {"openapi-spec.deleted", "Deleted OpenAPI specification"},

	"publishIntegration":                 {"integration.published", "Published integration"},
	"unpublishIntegration":               {"integration.unpublished", "Unpublished integration"},
	"setIntegrationDevelopmentMode":      {"integration.dev-mode.enabled", "Turned on integration development mode"},
	"disableIntegrationDevelopmentMode":  {"integration.dev-mode.disabled", "Turned off integration development mode"},
	"installIntegration":                 {"integration.installed", "Installed integration"},
	"updateIntegrationInstallation":      {"integration.installation.updated", "Updated integration installation"},
	"uninstallIntegration":               {"integration.uninstalled", "Uninstalled integration"},
	"createIntegrationInstallationToken": {"integration.installation.token-created", "Created installation token"},
	"installIntegrationOnSpace":          {"integration.space-installation.created", "Installed integration on space"},
	"updateIntegrationSpaceInstallation": {"integration.space-installation.updated", "Updated integration on space"},
	"uninstallIntegrationFromSpace":      {"integration.space-installation.deleted", "Uninstalled integration from space"},
	"installIntegrationOnSite":           {"integration.site-installation.created", "Installed integration on site"},
	"updateIntegrationSiteInstallation":  {"integration.site-installation.updated", "Updated integration on site"},
	"uninstallIntegrationFromSite":       {"integration.site-installation.deleted", "Uninstalled integration from site"},

	"updateUserById": {"user.updated", "Updated user profile"},
}

// auditActionList is every action quire records, sorted by id, each once.
func auditActionList() []auditAction {
	seen := map[string]bool{samlSignInAction.ID: true}
	out := []auditAction{samlSignInAction}
	for _, a := range auditActions {
		if !seen[a.ID] {
			seen[a.ID] = true
			out = append(out, a)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
