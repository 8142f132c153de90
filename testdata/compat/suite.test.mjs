// Compatibility suite: drives a running quire through GitBook's published JS client
// (@gitbook/api, pinned in package.json) and checks status, shape and state of every answer.
//
// Environment (set by testdata/compat/run.sh, or by hand against a server you started):
//   QUIRE_URL    base URL of the server, without /v1 (the client appends it)
//   ALICE_TOKEN  API token of alice@example.com
//   BOB_TOKEN    API token of bob@example.com
//   BOB_ID       user id of bob
//   ALICE_ID     user id of alice (optional: read from GET /user when absent)
//
// The steps form one scenario and run in order; a step whose prerequisite failed is skipped,
// not failed, so the first failure is the one to read.

import assert from 'node:assert/strict';
import {
    suiteKit, need, rejectsWith, rejectsWithAnyOf, has, booleans, optionalTimestamp, checkList, TIMESTAMP,
    GitBookAPIError, GitBookAPILatest, GitBookAPIErrorLatest, recordingFetch, QUIRE_URL, ALICE_TOKEN, BOB_TOKEN, BOB_ID, API,
} from './kit.mjs';

// The operations of openapi.yaml this suite must exercise. Every one is called at least once;
// the last step checks that.
const OPERATIONS = [
    'getApiInformation', 'getAuthenticatedUser', 'listOrganizationsForAuthenticatedUser',
    'createOrganization', 'getOrganizationById', 'updateOrganizationById',
    'deleteOrganizationInviteById', 'joinOrganization', 'getOrganizationAgentInstructions',
    'updateOrganizationAgentInstructions', 'getOrganizationsForEmailDomain',
    'listMembersInOrganizationById', 'getMemberInOrganizationById',
    'updateMemberInOrganizationById', 'removeMemberFromOrganizationById',
    'updateOrganizationMemberLastSeenAt', 'setUserAsSSOMemberForOrganization',
    'listSpacesForOrganizationMember', 'listTeamsForOrganizationMember',
    'listTeamsInOrganizationById', 'createOrganizationTeam', 'getTeamInOrganizationById',
    'updateTeamInOrganizationById', 'removeTeamFromOrganizationById',
    'listCollectionsInOrganizationById', 'createCollection', 'getCollectionById',
    'updateCollectionById', 'deleteCollectionById', 'listSpacesInCollectionById',
    'moveCollection', 'transferCollection', 'listSpacesInOrganizationById', 'createSpace',
    'getSpaceById', 'updateSpaceById', 'deleteSpaceById', 'duplicateSpace', 'restoreSpace',
    'moveSpace', 'transferSpace',
    // change requests and content
    'createChangeRequest', 'listChangeRequestsForSpace', 'getChangeRequestById',
    'updateChangeRequestById', 'mergeChangeRequest', 'updateChangeRequest',
    'listChangeRequestsForOrganization', 'updateChangeRequestContent',
    'getRevisionOfChangeRequestById', 'listPagesInChangeRequest', 'getPageInChangeRequestById',
    'getPageInChangeRequestByPath', 'getCurrentRevision', 'listPages', 'getPageById', 'getPageByPath',
    'searchSpaceContent', 'searchOrganizationContent',
    'listFilesInChangeRequestById', 'getFileInChangeRequestById', 'listChangeRequestFileBacklinks',
    'listChangeRequestLinks', 'listPageLinksInChangeRequest', 'listChangeRequestPageBacklinks',
    'listFiles', 'getFileById', 'listSpaceFileBacklinks', 'listSpaceLinks', 'listPageLinksInSpace',
    'listSpacePageBacklinks', 'applyTemplateToSpace', 'getChangeRequestPDF',
    'listSites', 'createSite', 'getSiteById', 'updateSiteById', 'deleteSiteById', 'publishSite', 'unpublishSite', 'getSiteAdaptiveSchema', 'updateSiteAdaptiveSchema', 'listSiteAdaptiveTemplateConditions', 'getPublishedContentSite', 'listSiteSpaces', 'addSpaceToSite', 'updateSiteSpaceById', 'deleteSiteSpaceById', 'moveSiteSpace', 'listSiteSections', 'addSectionToSite', 'updateSiteSectionById', 'deleteSiteSectionById', 'moveSiteSection', 'listSiteSectionGroups', 'addSectionGroupToSite', 'updateSiteSectionGroupById', 'deleteSiteSectionGroupById', 'addSectionToGroup', 'removeSectionFromGroup',
    'listCommentsInSpace',
    'postCommentInSpace',
    'getCommentInSpace',
    'updateCommentInSpace',
    'deleteCommentInSpace',
    'listCommentRepliesInSpace',
    'postCommentReplyInSpace',
    'getCommentReplyInSpace',
    'updateCommentReplyInSpace',
    'deleteCommentReplyInSpace',
    'listCommentersInSpace',
    'listCommentsInChangeRequest',
    'postCommentInChangeRequest',
    'getCommentInChangeRequest',
    'updateCommentInChangeRequest',
    'deleteCommentInChangeRequest',
    'listCommentRepliesInChangeRequest',
    'postCommentReplyInChangeRequest',
    'getCommentReplyInChangeRequest',
    'updateCommentReplyInChangeRequest',
    'deleteCommentReplyInChangeRequest',
    'listCommentersInChangeRequest',
];

// Operations the 0.146.0 client has under another method name.
const CLIENT_METHOD_TO_OPERATION = {
    setUserAsSsoMemberForOrganization: 'setUserAsSSOMemberForOrganization',
    getChangeRequestPdf: 'getChangeRequestPDF',
};

// Operations the 0.146.0 client does not have at all: through raw fetch, or through the 0.202.0
// client (gitbook-api-latest).
const RAW_ONLY = ['createOrganization'];
const LATEST_ONLY = ['updateChangeRequestContent'];

const kit = suiteKit({
    operations: OPERATIONS,
    clientMethodToOperation: CLIENT_METHOD_TO_OPERATION,
    rawOnly: RAW_ONLY,
    latestOnly: LATEST_ONLY,
});
const { alice, bob, anonymous, impostor, raw, step, called } = kit;

// ---------------------------------------------------------------------------------------------
// Shapes (the required fields of openapi.yaml's schemas)

const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'];

function checkUser(u, where = 'user') {
    assert.equal(has(u, 'object', 'string', where), 'user');
    has(u, 'id', 'id', where);
    has(u, 'displayName', 'string', where);
    has(u, 'urls', 'object', where);
    const loc = has(u.urls, 'location', 'url', `${where}.urls`);
    assert.ok(loc.startsWith(`${API}/`), `${where}.urls.location ${loc} is not under ${API}`);
    return u;
}

function checkOrganization(o, where = 'organization') {
    assert.equal(has(o, 'object', 'string', where), 'organization');
    has(o, 'id', 'id', where);
    has(o, 'title', 'string', where);
    has(o, 'createdAt', 'timestamp', where);
    has(o, 'emailDomains', 'array', where);
    o.emailDomains.forEach((d) => assert.equal(typeof d, 'string'));
    has(o, 'type', 'string', where);
    has(o, 'inviteLinks', 'boolean', where);
    has(o, 'plan', 'string', where);
    has(o, 'mergeRules', 'object', where);
    has(o.mergeRules, 'type', 'string', `${where}.mergeRules`);
    has(o, 'urls', 'object', where);
    assert.equal(has(o.urls, 'location', 'url', `${where}.urls`), `${API}/orgs/${o.id}`);
    has(o.urls, 'app', 'url', `${where}.urls`);
    has(o, 'trial', 'object', where);
    has(o.trial, 'status', 'string', `${where}.trial`);
    has(o.trial, 'count', 'integer', `${where}.trial`);
    has(o, 'permissions', 'object', where);
    booleans(o.permissions, ['view', 'access', 'admin', 'ownTeam', 'createContent', 'createOpenAPISpec',
        'ingestConversations', 'viewBilling', 'listMembers', 'listTeams', 'listIntegrations',
        'listInstallations', 'installIntegration'], `${where}.permissions`);
    return o;
}

function checkMember(m, where = 'member') {
    assert.equal(has(m, 'object', 'string', where), 'member');
    has(m, 'id', 'id', where);
    has(m, 'role', 'present', where);
    assert.ok(m.role === null || ROLES.includes(m.role), `${where}.role is ${JSON.stringify(m.role)}`);
    checkUser(has(m, 'user', 'object', where), `${where}.user`);
    assert.equal(m.id, m.user.id, `${where}: member id is the user id`);
    has(m, 'disabled', 'boolean', where);
    has(m, 'joinedAt', 'timestamp', where);
    optionalTimestamp(m, 'lastSeenAt', where);
    has(m, 'sso', 'boolean', where);
    has(m, 'spaces', 'integer', where);
    has(m, 'teams', 'integer', where);
    return m;
}

function checkTeam(t, where = 'team') {
    assert.equal(has(t, 'object', 'string', where), 'team');
    has(t, 'id', 'id', where);
    has(t, 'title', 'string', where);
    has(t, 'members', 'integer', where);
    has(t, 'spaces', 'integer', where);
    has(t, 'createdAt', 'timestamp', where);
    has(t, 'permissions', 'object', where);
    booleans(t.permissions, ['admin', 'view'], `${where}.permissions`);
    return t;
}

function checkCollection(c, where = 'collection') {
    assert.equal(has(c, 'object', 'string', where), 'collection');
    has(c, 'id', 'id', where);
    has(c, 'title', 'string', where);
    has(c, 'organization', 'id', where);
    if (c.parent !== undefined) has(c, 'parent', 'id', where);
    has(c, 'defaultLevel', 'present', where);
    has(c, 'urls', 'object', where);
    assert.equal(has(c.urls, 'location', 'url', `${where}.urls`), `${API}/collections/${c.id}`);
    has(c.urls, 'app', 'url', `${where}.urls`);
    has(c, 'permissions', 'object', where);
    booleans(c.permissions, ['view', 'admin', 'viewInviteLinks', 'create'], `${where}.permissions`);
    return c;
}

function checkSpace(s, where = 'space') {
    assert.equal(has(s, 'object', 'string', where), 'space');
    has(s, 'id', 'id', where);
    has(s, 'title', 'string', where);
    has(s, 'emoji', 'string', where);
    has(s, 'organization', 'id', where);
    if (s.parent !== undefined) has(s, 'parent', 'id', where);
    const vis = has(s, 'visibility', 'string', where);
    assert.ok(['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'].includes(vis),
        `${where}.visibility is ${vis}`);
    has(s, 'revision', 'id', where);
    has(s, 'createdAt', 'timestamp', where);
    has(s, 'updatedAt', 'timestamp', where);
    optionalTimestamp(s, 'deletedAt', where);
    for (const k of ['comments', 'changeRequests', 'changeRequestsOpen', 'changeRequestsDraft']) {
        has(s, k, 'integer', where);
    }
    has(s, 'mergeRules', 'object', where);
    has(s.mergeRules, 'type', 'string', `${where}.mergeRules`);
    has(s, 'urls', 'object', where);
    assert.equal(has(s.urls, 'location', 'url', `${where}.urls`), `${API}/spaces/${s.id}`);
    has(s.urls, 'app', 'url', `${where}.urls`);
    has(s, 'defaultLevel', 'present', where);
    has(s, 'permissions', 'object', where);
    booleans(s.permissions, ['view', 'access', 'admin', 'viewInviteLinks', 'edit', 'triggerGitSync',
        'comment', 'merge', 'review', 'installIntegration'], `${where}.permissions`);
    return s;
}

const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'];
const REVISION_TYPES = ['edits', 'merge', 'update', 'rollback', 'computed'];
const PAGE_KINDS = ['sheet', 'group', 'link'];
const PAGE_TYPES = ['document', 'group', 'link', 'computed'];

function checkDocument(d, where = 'document') {
    assert.equal(has(d, 'object', 'string', where), 'document');
    has(d, 'data', 'object', where);
    has(d, 'nodes', 'array', where);
    const walk = (nodes, at) => nodes.forEach((n, i) => {
        const w = `${at}.nodes[${i}]`;
        const o = has(n, 'object', 'string', w);
        assert.ok(['block', 'inline', 'text'].includes(o), `${w}.object is ${o}`);
        if (n.nodes !== undefined) walk(has(n, 'nodes', 'array', w), w);
    });
    walk(d.nodes, where);
    return d;
}

function checkChangeRequest(c, where = 'changeRequest') {
    assert.equal(has(c, 'object', 'string', where), 'change-request');
    has(c, 'id', 'id', where);
    const n = has(c, 'number', 'integer', where);
    assert.ok(n >= 1, `${where}.number is ${n}`);
    const st = has(c, 'status', 'string', where);
    assert.ok(CHANGE_REQUEST_STATUSES.includes(st), `${where}.status is ${st}`);
    has(c, 'subject', 'string', where);
    if (c.description !== undefined) checkDocument(c.description, `${where}.description`);
    checkUser(has(c, 'createdBy', 'object', where), `${where}.createdBy`);
    has(c, 'createdAt', 'timestamp', where);
    has(c, 'updatedAt', 'timestamp', where);
    assert.ok(c.updatedAt >= c.createdAt, `${where}: updatedAt ${c.updatedAt} before createdAt ${c.createdAt}`);
    has(c, 'space', 'id', where);
    has(c, 'revision', 'id', where);
    has(c, 'revisionInitial', 'id', where);
    if (c.revisionMergedAncestor !== undefined) has(c, 'revisionMergedAncestor', 'id', where);
    if (c.revisionMerged !== undefined) has(c, 'revisionMerged', 'id', where);
    has(c, 'comments', 'integer', where);
    has(c, 'outdated', 'boolean', where);
    has(c, 'urls', 'object', where);
    assert.equal(has(c.urls, 'location', 'url', `${where}.urls`), `${API}/spaces/${c.space}/change-requests/${c.id}`);
    has(c.urls, 'app', 'url', `${where}.urls`);
    return c;
}

function checkPage(p, where = 'page') {
    has(p, 'id', 'id', where);
    const title = has(p, 'title', 'string', where);
    assert.ok(title.length > 0, `${where}.title is empty`);
    const kind = has(p, 'kind', 'string', where);
    assert.ok(PAGE_KINDS.includes(kind), `${where}.kind is ${kind}`);
    const type = has(p, 'type', 'string', where);
    assert.ok(PAGE_TYPES.includes(type), `${where}.type is ${type}`);
    has(p, 'slug', 'string', where);
    has(p, 'path', 'string', where);
    optionalTimestamp(p, 'createdAt', where);
    optionalTimestamp(p, 'updatedAt', where);
    if (p.markdown !== undefined) has(p, 'markdown', 'string', where);
    if (p.document !== undefined) checkDocument(p.document, `${where}.document`);
    has(p, 'urls', 'object', where);
    has(p.urls, 'app', 'url', `${where}.urls`);
    has(p, 'layout', 'object', where);
    has(p.layout, 'width', 'string', `${where}.layout`);
    has(p.layout, 'coverSize', 'string', `${where}.layout`);
    booleans(p.layout, ['cover', 'title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata'],
        `${where}.layout`);
    has(p, 'pages', 'array', where).forEach((sub, i) => checkPage(sub, `${where}.pages[${i}]`));
    return p;
}

function checkRevision(r, where = 'revision') {
    assert.equal(has(r, 'object', 'string', where), 'revision');
    has(r, 'id', 'id', where);
    const type = has(r, 'type', 'string', where);
    assert.ok(REVISION_TYPES.includes(type), `${where}.type is ${type}`);
    has(r, 'parents', 'array', where).forEach((id) => assert.equal(typeof id, 'string', `${where}.parents`));
    has(r, 'pages', 'array', where).forEach((p, i) => checkPage(p, `${where}.pages[${i}]`));
    has(r, 'files', 'array', where);
    has(r, 'reusableContents', 'array', where);
    has(r, 'variables', 'object', where);
    has(r, 'urls', 'object', where);
    has(r.urls, 'app', 'url', `${where}.urls`);
    has(r, 'createdAt', 'timestamp', where);
    if (r.mergedFrom !== undefined) checkChangeRequest(r.mergedFrom, `${where}.mergedFrom`);
    return r;
}

function checkPageTree(body, where = 'pageTree') {
    has(body, 'pages', 'array', where).forEach((p, i) => checkPage(p, `${where}.pages[${i}]`));
    return body.pages;
}

/** The plain text of a document node: its text leaves, in order, joined. */
const blockText = (node) => (node.object === 'text'
    ? (node.leaves ?? []).map((l) => l.text).join('')
    : (node.nodes ?? []).map(blockText).join(''));

/** The tree of pages reduced to what the scenario set: id, title, path, subpages. */
const outline = (pages) => pages.map((p) => ({ id: p.id, title: p.title, path: p.path, pages: outline(p.pages) }));

const ids = (items) => items.map((x) => x.id);

// ---------------------------------------------------------------------------------------------
// Scenario state

const S = {};

// ---------------------------------------------------------------------------------------------
// Meta and users

step('getApiInformation: anonymous and authenticated', async () => {
    for (const api of [anonymous, alice]) {
        const r = await api.getApiInformation();
        assert.equal(r.status, 200);
        has(r.data, 'version', 'string', 'apiInformation');
        has(r.data, 'build', 'string', 'apiInformation');
    }
});

step('getAuthenticatedUser: alice and bob', async () => {
    const a = await alice.user.getAuthenticatedUser();
    assert.equal(a.status, 200);
    checkUser(a.data, 'alice');
    assert.equal(a.data.email, 'alice@example.com');
    if (process.env.ALICE_ID) assert.equal(a.data.id, process.env.ALICE_ID);
    S.aliceId = a.data.id;

    const b = await bob.user.getAuthenticatedUser();
    assert.equal(b.status, 200);
    checkUser(b.data, 'bob');
    assert.equal(b.data.id, BOB_ID);
    assert.equal(b.data.email, 'bob@example.com');
    assert.notEqual(b.data.id, a.data.id);
});

step('getAuthenticatedUser: bad token and no token answer 401', async () => {
    await rejectsWith(401, impostor.user.getAuthenticatedUser(), 'GET /user with an unknown token');
    await rejectsWith(401, anonymous.user.getAuthenticatedUser(), 'GET /user without a token');
});

// ---------------------------------------------------------------------------------------------
// Organizations

step('createOrganization (raw fetch: not in the 0.146.0 client)', async () => {
    const r = await raw('createOrganization', ALICE_TOKEN, 'POST', '/orgs', { title: 'Acme Docs' });
    assert.equal(r.status, 201, JSON.stringify(r.data));
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
    checkOrganization(r.data);
    assert.equal(r.data.title, 'Acme Docs');
    assert.equal(r.data.permissions.admin, true, 'the creator administers the organization');
    S.org = r.data.id;
});

step('createOrganization: validation errors answer 400 in the error shape', async () => {
    const short = await raw('createOrganization', ALICE_TOKEN, 'POST', '/orgs', { title: 'A' });
    assert.equal(short.status, 400, `title below minLength: ${JSON.stringify(short.data)}`);
    assert.equal(short.data?.error?.code, 400, JSON.stringify(short.data));
    assert.equal(typeof short.data.error.message, 'string');

    const extra = await raw('createOrganization', ALICE_TOKEN, 'POST', '/orgs', { title: 'Acme', bogus: 1 });
    assert.equal(extra.status, 400, `unknown property: ${JSON.stringify(extra.data)}`);

    const anon = await raw('createOrganization', undefined, 'POST', '/orgs', { title: 'Acme' });
    assert.equal(anon.status, 401, JSON.stringify(anon.data));
    assert.equal(anon.data?.error?.code, 401, JSON.stringify(anon.data));
});

step('getOrganizationById', async () => {
    need(S.org);
    const r = await alice.orgs.getOrganizationById(S.org);
    assert.equal(r.status, 200);
    checkOrganization(r.data);
    assert.equal(r.data.id, S.org);
    assert.equal(r.data.title, 'Acme Docs');
    assert.equal(r.data.permissions.admin, true);
});

step('listOrganizationsForAuthenticatedUser contains the new organization', async () => {
    need(S.org);
    const r = await alice.orgs.listOrganizationsForAuthenticatedUser();
    assert.equal(r.status, 200);
    const items = checkList(r.data, checkOrganization, 'organizations');
    assert.ok(ids(items).includes(S.org), 'the new organization is listed');
});

step('updateOrganizationById: title, emailDomains and defaultRole change and persist', async () => {
    need(S.org);
    const r = await alice.orgs.updateOrganizationById(S.org, {
        title: 'Acme Documentation',
        emailDomains: ['example.com'],
        defaultRole: 'comment',
    });
    assert.equal(r.status, 200);
    checkOrganization(r.data);
    assert.equal(r.data.id, S.org);
    assert.equal(r.data.title, 'Acme Documentation');
    assert.deepEqual(r.data.emailDomains, ['example.com']);
    assert.equal(r.data.defaultRole, 'comment');

    const again = await alice.orgs.getOrganizationById(S.org);
    assert.equal(again.data.title, 'Acme Documentation');
    assert.deepEqual(again.data.emailDomains, ['example.com']);
    assert.equal(again.data.defaultRole, 'comment');

    const title = await alice.orgs.updateOrganizationById(S.org, { title: 'Acme Documentation' });
    assert.deepEqual(title.data.emailDomains, ['example.com'], 'fields absent from the body are left alone');
    assert.equal(title.data.defaultRole, 'comment');
});

step('updateOrganizationById: invalid email domain answers 400', async () => {
    need(S.org);
    await rejectsWith(400, alice.orgs.updateOrganizationById(S.org, { emailDomains: ['Not A Domain'] }),
        'PATCH /orgs/{id} with a bad email domain');
});

step('getOrganizationById: a non-member gets 404', async () => {
    need(S.org);
    await rejectsWith(404, bob.orgs.getOrganizationById(S.org), 'bob reads an organization he is not in');
});

step('getOrganizationsForEmailDomain: bob sees the organization for his own domain only', async () => {
    need(S.org);
    const r = await bob.emailDomains.getOrganizationsForEmailDomain('example.com');
    assert.equal(r.status, 200);
    has(r.data, 'organizations', 'array', 'organizationsForEmailDomain');
    r.data.organizations.forEach((o, i) => checkOrganization(o, `organizations[${i}]`));
    assert.ok(ids(r.data.organizations).includes(S.org), 'the organization allowing example.com is listed');

    const other = await bob.emailDomains.getOrganizationsForEmailDomain('example.org');
    assert.equal(other.status, 200);
    assert.deepEqual(other.data.organizations, [], 'another domain lists no organization');
});

step('joinOrganization: bob joins by email domain (204, and again 204)', async () => {
    need(S.org);
    const r = await bob.orgs.joinOrganization(S.org);
    assert.equal(r.status, 204);
    const again = await bob.orgs.joinOrganization(S.org);
    assert.equal(again.status, 204, 'joining twice is not an error');

    const org = await bob.orgs.getOrganizationById(S.org);
    assert.equal(org.status, 200);
    checkOrganization(org.data);
    assert.equal(org.data.permissions.admin, false, 'bob is not an admin');

    const mine = await bob.orgs.listOrganizationsForAuthenticatedUser();
    assert.ok(ids(mine.data.items).includes(S.org), "the organization is in bob's list");
    S.bobJoined = true;
});

step('listMembersInOrganizationById: alice (admin) and bob, with filters and paging', async () => {
    need(S.org, S.bobJoined, S.aliceId);
    const r = await alice.orgs.listMembersInOrganizationById(S.org);
    assert.equal(r.status, 200);
    const items = checkList(r.data, checkMember, 'members');
    assert.equal(r.data.count, 2);
    const a = items.find((m) => m.id === S.aliceId);
    const b = items.find((m) => m.id === BOB_ID);
    assert.ok(a, 'alice is listed');
    assert.ok(b, 'bob is listed');
    assert.equal(a.role, 'admin');
    assert.equal(b.user.email, 'bob@example.com');
    assert.equal(b.role, 'comment', "a member who joins gets the organization's defaultRole");

    const admins = await alice.orgs.listMembersInOrganizationById(S.org, { role: 'admin' });
    assert.deepEqual(ids(admins.data.items), [S.aliceId], 'role=admin lists alice only');

    const search = await alice.orgs.listMembersInOrganizationById(S.org, { search: 'BOB@' });
    assert.deepEqual(ids(search.data.items), [BOB_ID], 'search matches the email case-insensitively');

    const p1 = await alice.orgs.listMembersInOrganizationById(S.org, { limit: 1, order: 'asc' });
    assert.equal(p1.data.items.length, 1);
    assert.equal(p1.data.count, 2);
    assert.ok(p1.data.next?.page, 'a first page of 1 out of 2 has next.page');
    const p2 = await alice.orgs.listMembersInOrganizationById(S.org, { limit: 1, order: 'asc', page: p1.data.next.page });
    assert.equal(p2.data.items.length, 1);
    assert.deepEqual([...ids(p1.data.items), ...ids(p2.data.items)].sort(), [S.aliceId, BOB_ID].sort(),
        'the two pages hold both members, once each');
    assert.ok(p1.data.items[0].joinedAt <= p2.data.items[0].joinedAt, 'order=asc: joinedAt does not go down');
    assert.equal(p2.data.next, undefined, 'the last page has no next');
});

step('getMemberInOrganizationById', async () => {
    need(S.org, S.bobJoined);
    const r = await alice.orgs.getMemberInOrganizationById(S.org, BOB_ID);
    assert.equal(r.status, 200);
    checkMember(r.data);
    assert.equal(r.data.id, BOB_ID);
    assert.equal(r.data.user.id, BOB_ID);
    assert.equal(r.data.sso, false);
});

step('updateMemberInOrganizationById: bob becomes edit', async () => {
    need(S.org, S.bobJoined);
    const r = await alice.orgs.updateMemberInOrganizationById(S.org, BOB_ID, { role: 'edit' });
    assert.equal(r.status, 200);
    checkMember(r.data);
    assert.equal(r.data.id, BOB_ID);
    assert.equal(r.data.role, 'edit');
    const again = await alice.orgs.getMemberInOrganizationById(S.org, BOB_ID);
    assert.equal(again.data.role, 'edit');
    S.bobIsEditor = true;
});

step('updateMemberInOrganizationById: unknown role answers 400', async () => {
    need(S.org, S.bobJoined);
    await rejectsWith(400, alice.orgs.updateMemberInOrganizationById(S.org, BOB_ID, { role: 'owner' }),
        'PATCH member with role owner');
});

step('an edit member cannot administer: 403', async () => {
    need(S.org, S.bobIsEditor);
    await rejectsWith(403, bob.orgs.updateOrganizationById(S.org, { title: 'Bob was here' }),
        'bob (edit) renames the organization');
    await rejectsWith(403, bob.orgs.updateMemberInOrganizationById(S.org, BOB_ID, { role: 'admin' }),
        'bob (edit) makes himself admin');
    await rejectsWith(403, bob.orgs.createCollection(S.org, { title: 'Nope' }),
        'bob (edit) creates a collection');
});

step('updateOrganizationAgentInstructions and getOrganizationAgentInstructions', async () => {
    need(S.org, S.aliceId);
    const instructions = {
        object: 'document',
        data: { schemaVersion: 1 },
        nodes: [{
            object: 'block',
            type: 'paragraph',
            data: {},
            nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Answer in plain English.', marks: [] }] }],
        }],
    };
    const put = await alice.orgs.updateOrganizationAgentInstructions(S.org, { instructions });
    assert.equal(put.status, 200);
    const check = (ai, where) => {
        assert.equal(has(ai, 'object', 'string', where), 'agent-instructions');
        has(ai, 'instructions', 'object', where);
        assert.equal(ai.instructions.object, 'document');
        has(ai.instructions, 'nodes', 'array', `${where}.instructions`);
        assert.ok(JSON.stringify(ai.instructions).includes('Answer in plain English.'),
            `${where}: the text is kept: ${JSON.stringify(ai.instructions)}`);
        has(ai, 'updatedAt', 'timestamp', where);
        assert.equal(has(ai, 'updatedBy', 'string', where), S.aliceId);
        has(ai, 'urls', 'object', where);
        has(ai.urls, 'location', 'url', `${where}.urls`);
    };
    check(put.data, 'agentInstructions(put)');

    const get = await alice.orgs.getOrganizationAgentInstructions(S.org);
    assert.equal(get.status, 200);
    check(get.data, 'agentInstructions(get)');

    const asBob = await bob.orgs.getOrganizationAgentInstructions(S.org);
    assert.equal(asBob.status, 200, 'a member reads the instructions');
});

step('updateOrganizationMemberLastSeenAt (ping): a JWT in platformVisitorClaims, lastSeenAt set', async () => {
    need(S.org, S.bobJoined);
    const r = await bob.orgs.updateOrganizationMemberLastSeenAt(S.org);
    assert.equal(r.status, 200);
    const jwt = has(r.data, 'platformVisitorClaims', 'string', 'ping');
    const parts = jwt.split('.');
    assert.equal(parts.length, 3, `platformVisitorClaims is a JWT: ${jwt}`);
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    assert.equal(header.alg, 'HS256');
    JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    // GitBook's typed client reads the same token as gitbookVisitorClaims.
    assert.equal(r.data.gitbookVisitorClaims, jwt, 'gitbookVisitorClaims carries the same token');

    const m = await alice.orgs.getMemberInOrganizationById(S.org, BOB_ID);
    has(m.data, 'lastSeenAt', 'timestamp', 'member after ping');

    const seen = await alice.orgs.listMembersInOrganizationById(S.org, { sort: 'lastSeenAt' });
    assert.equal(seen.status, 200);
    assert.ok(ids(seen.data.items).includes(BOB_ID), 'sort=lastSeenAt lists the member who pinged');
});

// ---------------------------------------------------------------------------------------------
// Teams

step('createOrganizationTeam with bob (PUT), then get and list it', async () => {
    need(S.org, S.bobJoined);
    const r = await alice.orgs.createOrganizationTeam(S.org, { title: 'Writers', members: [BOB_ID] });
    assert.equal(r.status, 201);
    checkTeam(r.data);
    assert.equal(r.data.title, 'Writers');
    assert.ok(r.data.members >= 1, 'bob counts as a member');
    S.team = r.data.id;

    const get = await alice.orgs.getTeamInOrganizationById(S.org, S.team);
    assert.equal(get.status, 200);
    checkTeam(get.data);
    assert.equal(get.data.id, S.team);
    assert.equal(get.data.title, 'Writers');

    const list = await alice.orgs.listTeamsInOrganizationById(S.org);
    assert.equal(list.status, 200);
    assert.ok(ids(checkList(list.data, checkTeam, 'teams')).includes(S.team));

    const filtered = await alice.orgs.listTeamsInOrganizationById(S.org, { title: 'WRIT' });
    assert.deepEqual(ids(filtered.data.items), [S.team], 'title filter is a case-insensitive contains');
    const none = await alice.orgs.listTeamsInOrganizationById(S.org, { title: 'zzz' });
    assert.equal(none.data.items.length, 0);
    assert.equal(none.data.count, 0);
});

step("listTeamsForOrganizationMember: bob's teams", async () => {
    need(S.org, S.team);
    const r = await alice.orgs.listTeamsForOrganizationMember(S.org, BOB_ID);
    assert.equal(r.status, 200);
    const items = checkList(r.data, (it, where) => {
        checkTeam(has(it, 'team', 'object', where), `${where}.team`);
        has(it, 'member', 'object', where);
        assert.ok(['owner', 'member'].includes(it.member.role), `${where}.member.role is ${it.member.role}`);
    }, 'memberTeams');
    assert.deepEqual(items.map((i) => i.team.id), [S.team]);

    const m = await alice.orgs.getMemberInOrganizationById(S.org, BOB_ID);
    assert.equal(m.data.teams, 1, "the member's team count");
});

step('updateTeamInOrganizationById: renamed', async () => {
    need(S.org, S.team);
    const r = await alice.orgs.updateTeamInOrganizationById(S.org, S.team, { title: 'Editors' });
    assert.equal(r.status, 200);
    checkTeam(r.data);
    assert.equal(r.data.id, S.team);
    assert.equal(r.data.title, 'Editors');
    const again = await alice.orgs.getTeamInOrganizationById(S.org, S.team);
    assert.equal(again.data.title, 'Editors');
});

// ---------------------------------------------------------------------------------------------
// Collections and spaces

step('createCollection: a top-level and a nested collection', async () => {
    need(S.org);
    const top = await alice.orgs.createCollection(S.org, { title: 'Guides' });
    assert.equal(top.status, 201);
    checkCollection(top.data);
    assert.equal(top.data.title, 'Guides');
    assert.equal(top.data.organization, S.org);
    assert.equal(top.data.parent, undefined);
    assert.equal(top.data.permissions.admin, true);
    S.guides = top.data.id;

    const nested = await alice.orgs.createCollection(S.org, { title: 'Advanced', parent: S.guides });
    assert.equal(nested.status, 201);
    checkCollection(nested.data);
    assert.equal(nested.data.parent, S.guides);
    assert.equal(nested.data.organization, S.org);
    S.advanced = nested.data.id;
});

step('listCollectionsInOrganizationById: nested true (default) and false', async () => {
    need(S.guides, S.advanced);
    const all = await alice.orgs.listCollectionsInOrganizationById(S.org);
    assert.equal(all.status, 200);
    const items = checkList(all.data, checkCollection, 'collections');
    assert.deepEqual(ids(items).sort(), [S.guides, S.advanced].sort());
    assert.equal(all.data.count, 2);

    const top = await alice.orgs.listCollectionsInOrganizationById(S.org, { nested: false });
    assert.equal(top.status, 200);
    assert.deepEqual(ids(top.data.items), [S.guides], 'nested=false lists the top level only');
    assert.equal(top.data.count, 1);
});

step('getCollectionById and updateCollectionById', async () => {
    need(S.guides);
    const get = await alice.collections.getCollectionById(S.guides);
    assert.equal(get.status, 200);
    checkCollection(get.data);
    assert.equal(get.data.id, S.guides);

    const upd = await alice.collections.updateCollectionById(S.guides, {
        title: 'User Guides',
        description: 'How to use the product',
    });
    assert.equal(upd.status, 200);
    checkCollection(upd.data);
    assert.equal(upd.data.id, S.guides);
    assert.equal(upd.data.title, 'User Guides');
    assert.equal(upd.data.description, 'How to use the product');

    const again = await alice.collections.getCollectionById(S.guides);
    assert.equal(again.data.title, 'User Guides');
    assert.equal(again.data.description, 'How to use the product');

    const tooLong = alice.collections.updateCollectionById(S.guides, { title: 'x'.repeat(51) });
    await rejectsWith(400, tooLong, 'collection title of 51 characters');
});

step('createSpace: in collections and at the top level', async () => {
    need(S.org, S.guides, S.advanced);
    const gs = await alice.orgs.createSpace(S.org, { title: 'Getting started', emoji: '1f680', parent: S.guides });
    assert.equal(gs.status, 201);
    checkSpace(gs.data);
    assert.equal(gs.data.title, 'Getting started');
    assert.equal(gs.data.emoji, '1f680');
    assert.equal(gs.data.organization, S.org);
    assert.equal(gs.data.parent, S.guides);
    assert.equal(gs.data.permissions.admin, true);
    assert.equal(gs.data.deletedAt, undefined);
    S.gettingStarted = gs.data.id;

    const faq = await alice.orgs.createSpace(S.org, { title: 'FAQ', parent: S.guides });
    assert.equal(faq.status, 201);
    checkSpace(faq.data);
    assert.equal(faq.data.parent, S.guides);
    S.faq = faq.data.id;

    const deep = await alice.orgs.createSpace(S.org, { title: 'Deep dive', parent: S.advanced });
    assert.equal(deep.status, 201);
    checkSpace(deep.data);
    assert.equal(deep.data.parent, S.advanced);
    S.deepDive = deep.data.id;

    const scratch = await alice.orgs.createSpace(S.org, { title: 'Scratch' });
    assert.equal(scratch.status, 201);
    checkSpace(scratch.data);
    assert.equal(scratch.data.parent, undefined);
    S.scratch = scratch.data.id;

    assert.equal(new Set([S.gettingStarted, S.faq, S.deepDive, S.scratch]).size, 4, 'ids are distinct');
});

step('createSpace: an edit member gets 403, a stranger 404', async () => {
    need(S.org, S.bobIsEditor);
    await rejectsWith(403, bob.orgs.createSpace(S.org, { title: 'Bob space' }), 'bob (edit) creates a space');
    const stranger = await raw('createOrganization', BOB_TOKEN, 'POST', '/orgs', { title: 'Bob Co' });
    assert.equal(stranger.status, 201);
    S.bobOrg = stranger.data.id;
    await rejectsWith(404, alice.orgs.createSpace(S.bobOrg, { title: 'Intruder' }),
        "alice creates a space in bob's organization");
    await rejectsWith(404, alice.orgs.getOrganizationById(S.bobOrg), "alice reads bob's organization");
});

step('listSpacesInCollectionById and listSpacesInOrganizationById', async () => {
    need(S.gettingStarted, S.faq, S.deepDive, S.scratch);
    const inGuides = await alice.collections.listSpacesInCollectionById(S.guides);
    assert.equal(inGuides.status, 200);
    const items = checkList(inGuides.data, checkSpace, 'collectionSpaces');
    assert.deepEqual(ids(items), [S.gettingStarted, S.faq], 'the spaces directly in the collection, in order');
    assert.equal(inGuides.data.count, 2);

    const all = await alice.orgs.listSpacesInOrganizationById(S.org);
    assert.equal(all.status, 200);
    const allIds = ids(checkList(all.data, checkSpace, 'orgSpaces'));
    for (const id of [S.gettingStarted, S.faq, S.deepDive, S.scratch]) assert.ok(allIds.includes(id), `${id} listed`);
    assert.equal(all.data.count, 4);

    // walk the same list one item at a time through next.page
    const walked = [];
    let page;
    for (let i = 0; i < 10; i++) {
        const r = await alice.orgs.listSpacesInOrganizationById(S.org, { limit: 1, page });
        assert.equal(r.status, 200);
        assert.ok(r.data.items.length <= 1);
        assert.equal(r.data.count, 4, 'count is the total, on every page');
        walked.push(...ids(r.data.items));
        page = r.data.next?.page;
        if (!page) break;
    }
    assert.deepEqual(walked, allIds, 'paging one by one gives the same items in the same order');

    await rejectsWith(400, alice.orgs.listSpacesInOrganizationById(S.org, { limit: 1001 }), 'limit 1001');
    await rejectsWith(400, alice.orgs.listSpacesInOrganizationById(S.org, { limit: 0 }), 'limit 0');
    await rejectsWith(400, alice.orgs.listSpacesInOrganizationById(S.org, { page: 'not-a-cursor!' }),
        'a page cursor the server never issued');
});

step('getSpaceById and updateSpaceById', async () => {
    need(S.gettingStarted);
    const get = await alice.spaces.getSpaceById(S.gettingStarted);
    assert.equal(get.status, 200);
    checkSpace(get.data);
    assert.equal(get.data.id, S.gettingStarted);
    assert.equal(get.data.title, 'Getting started');

    const upd = await alice.spaces.updateSpaceById(S.gettingStarted, {
        title: 'Start here',
        editMode: 'locked',
        language: 'fr',
        emoji: '1f4d8',
        mergeRules: { type: 'none' },
    });
    assert.equal(upd.status, 200);
    checkSpace(upd.data);
    assert.equal(upd.data.id, S.gettingStarted);
    assert.equal(upd.data.title, 'Start here');
    assert.equal(upd.data.editMode, 'locked');
    assert.equal(upd.data.language, 'fr');
    assert.equal(upd.data.emoji, '1f4d8');
    assert.deepEqual(upd.data.mergeRules, { type: 'none' });

    const again = await alice.spaces.getSpaceById(S.gettingStarted);
    assert.equal(again.data.title, 'Start here');
    assert.equal(again.data.editMode, 'locked');
    assert.equal(again.data.language, 'fr');

    const live = await alice.spaces.updateSpaceById(S.gettingStarted, { editMode: 'live' });
    assert.equal(live.data.editMode, 'live');
    assert.equal(live.data.title, 'Start here', 'an absent field is left unchanged');

    await rejectsWith(400, alice.spaces.updateSpaceById(S.gettingStarted, { language: 'klingon' }),
        'PATCH space with an unknown language');
});

step('listSpacesForOrganizationMember: alice administers every space; bob sees his permission', async () => {
    need(S.org, S.aliceId, S.gettingStarted, S.faq, S.deepDive, S.scratch, S.bobJoined);
    const check = (it, where) => {
        has(it, 'permission', 'string', where);
        assert.ok(ROLES.includes(it.permission), `${where}.permission is ${it.permission}`);
        checkSpace(has(it, 'space', 'object', where), `${where}.space`);
    };
    const a = await alice.orgs.listSpacesForOrganizationMember(S.org, S.aliceId);
    assert.equal(a.status, 200);
    const items = checkList(a.data, check, 'aliceSpaces');
    for (const id of [S.gettingStarted, S.faq, S.deepDive, S.scratch]) {
        const it = items.find((x) => x.space.id === id);
        assert.ok(it, `space ${id} is listed for alice`);
        assert.equal(it.permission, 'admin');
    }

    const b = await alice.orgs.listSpacesForOrganizationMember(S.org, BOB_ID);
    assert.equal(b.status, 200);
    const bobs = checkList(b.data, check, 'bobSpaces');
    for (const id of [S.gettingStarted, S.faq, S.deepDive, S.scratch]) {
        const it = bobs.find((x) => x.space.id === id);
        assert.ok(it, `space ${id} is listed for bob`);
        assert.equal(it.permission, 'edit', "bob's organization role gives him edit on every space");
    }

    const asBob = await bob.spaces.getSpaceById(S.faq);
    assert.equal(asBob.status, 200);
    checkSpace(asBob.data);
    const p = asBob.data.permissions;
    assert.deepEqual([p.view, p.comment, p.edit, p.admin], [true, true, true, false],
        `bob's permissions (edit): ${JSON.stringify(p)}`);
});

step("defaultLevel: a collection's level reaches a space that inherits it", async () => {
    need(S.guides, S.faq, S.bobIsEditor);
    const sp = await alice.spaces.updateSpaceById(S.faq, { defaultLevel: 'inherit' });
    assert.equal(sp.status, 200);
    assert.equal(sp.data.defaultLevel, 'inherit');

    const c = await alice.collections.updateCollectionById(S.guides, { defaultLevel: 'review' });
    assert.equal(c.status, 200);
    checkCollection(c.data);
    assert.equal(c.data.defaultLevel, 'review');

    const mine = await alice.orgs.listSpacesForOrganizationMember(S.org, BOB_ID);
    const faq = mine.data.items.find((x) => x.space.id === S.faq);
    assert.ok(faq, 'FAQ is listed for bob');
    assert.equal(faq.permission, 'review', 'review (from the collection) is stronger than edit (his role)');
    const asBob = await bob.spaces.getSpaceById(S.faq);
    assert.equal(asBob.data.permissions.review, true);
    assert.equal(asBob.data.permissions.admin, false);

    // null is no access by default: the members granted nothing no longer read what inherits it.
    const reset = await alice.collections.updateCollectionById(S.guides, { defaultLevel: null });
    assert.equal(reset.status, 200);
    assert.equal(reset.data.defaultLevel, null, 'null is no default level, answered as null');
    const none = await alice.orgs.listSpacesForOrganizationMember(S.org, BOB_ID);
    assert.equal(none.data.items.find((x) => x.space.id === S.faq), undefined, 'FAQ is not listed for bob');
    await rejectsWith(404, bob.spaces.getSpaceById(S.faq), 'bob reads a space whose collection is closed to members');
    // inherit takes the organization's: bob's own role.
    await alice.collections.updateCollectionById(S.guides, { defaultLevel: 'inherit' });
    const back = await alice.orgs.listSpacesForOrganizationMember(S.org, BOB_ID);
    assert.equal(back.data.items.find((x) => x.space.id === S.faq)?.permission, 'edit');
});

step('moveSpace: FAQ before Start here, Scratch into and out of a collection', async () => {
    need(S.faq, S.gettingStarted, S.scratch, S.advanced);
    const r = await alice.spaces.moveSpace(S.faq, { position: { before: { type: 'space', space: S.gettingStarted } } });
    assert.equal(r.status, 200);
    checkSpace(r.data);
    assert.equal(r.data.id, S.faq);
    assert.equal(r.data.parent, S.guides, 'a position-only move keeps the parent');
    const order = await alice.collections.listSpacesInCollectionById(S.guides);
    assert.deepEqual(ids(order.data.items), [S.faq, S.gettingStarted], 'FAQ now comes first');
    await rejectsWith(400, alice.spaces.moveSpace(S.faq, { position: { before: { type: 'space', space: S.gettingStarted } } }),
        'the same move again, which would change nothing');

    const into = await alice.spaces.moveSpace(S.scratch, { parent: S.advanced });
    assert.equal(into.status, 200);
    checkSpace(into.data);
    assert.equal(into.data.parent, S.advanced);
    const inAdvanced = await alice.collections.listSpacesInCollectionById(S.advanced);
    assert.ok(ids(inAdvanced.data.items).includes(S.scratch));

    const out = await alice.spaces.moveSpace(S.scratch, { parent: null });
    assert.equal(out.status, 200);
    checkSpace(out.data);
    assert.equal(out.data.parent, undefined, 'parent null moves the space to the top level');
    const get = await alice.spaces.getSpaceById(S.scratch);
    assert.equal(get.data.parent, undefined);
});

step('moveSpace: unknown parent collection answers 404 or 400', async () => {
    need(S.scratch);
    await rejectsWithAnyOf([400, 404], alice.spaces.moveSpace(S.scratch, { parent: 'noSuchCollection0000' }),
        'moving a space into an unknown collection');
});

step('moveCollection: Advanced to the top level', async () => {
    need(S.advanced, S.guides);
    const r = await alice.collections.moveCollection(S.advanced, { parent: null });
    assert.equal(r.status, 200);
    checkCollection(r.data);
    assert.equal(r.data.id, S.advanced);
    assert.equal(r.data.parent, undefined);

    const top = await alice.orgs.listCollectionsInOrganizationById(S.org, { nested: false });
    assert.deepEqual(ids(top.data.items).sort(), [S.guides, S.advanced].sort(), 'both are top-level now');

    const before = await alice.collections.moveCollection(S.advanced, {
        position: { before: { type: 'collection', collection: S.guides } },
    });
    assert.equal(before.status, 200);
    checkCollection(before.data);
    assert.equal(before.data.parent, undefined, 'a position-only move keeps the parent');
    // the collection list is not ordered by position, so the order shows as a refused no-op move
    await rejectsWith(400, alice.collections.moveCollection(S.advanced, {
        position: { before: { type: 'collection', collection: S.guides } },
    }), 'the same move again, which would change nothing');

    await rejectsWith(400, alice.collections.moveCollection(S.guides, { parent: S.guides }),
        'a collection moved into itself');
});

step('duplicateSpace', async () => {
    need(S.gettingStarted);
    const r = await alice.spaces.duplicateSpace(S.gettingStarted);
    assert.equal(r.status, 200);
    checkSpace(r.data);
    assert.notEqual(r.data.id, S.gettingStarted);
    assert.equal(r.data.organization, S.org);
    assert.equal(r.data.parent, S.guides, 'the duplicate sits beside the original');
    assert.ok(r.data.title.startsWith('Start here'), `duplicate title: ${r.data.title}`);
    S.duplicate = r.data.id;

    const list = await alice.collections.listSpacesInCollectionById(S.guides);
    assert.ok(ids(list.data.items).includes(S.duplicate));
    assert.equal(list.data.count, 3);
});

step('deleteSpaceById then restoreSpace', async () => {
    need(S.duplicate);
    const del = await alice.spaces.deleteSpaceById(S.duplicate);
    assert.equal(del.status, 204);

    const list = await alice.orgs.listSpacesInOrganizationById(S.org);
    assert.ok(!ids(list.data.items).includes(S.duplicate), 'a deleted space is not listed');
    const inColl = await alice.collections.listSpacesInCollectionById(S.guides);
    assert.ok(!ids(inColl.data.items).includes(S.duplicate), 'nor in its collection');

    // GitBook answers a deleted space either as not found or with deletedAt set
    try {
        const get = await alice.spaces.getSpaceById(S.duplicate);
        checkSpace(get.data);
        has(get.data, 'deletedAt', 'timestamp', 'deleted space');
    } catch (e) {
        assert.ok(e instanceof GitBookAPIError && e.code === 404, `reading a deleted space: ${e}`);
    }

    const again = await alice.spaces.deleteSpaceById(S.duplicate);
    assert.equal(again.status, 204, 'deleting a deleted space is 204');

    const res = await alice.spaces.restoreSpace(S.duplicate);
    assert.equal(res.status, 200);
    checkSpace(res.data);
    assert.equal(res.data.id, S.duplicate);
    assert.equal(res.data.deletedAt, undefined);

    const get = await alice.spaces.getSpaceById(S.duplicate);
    assert.equal(get.status, 200);
    assert.equal(get.data.deletedAt, undefined);
    const after = await alice.orgs.listSpacesInOrganizationById(S.org);
    assert.ok(ids(after.data.items).includes(S.duplicate), 'the restored space is listed again');
});

step('deleteSpaceById: an unknown space answers 204', async () => {
    const r = await alice.spaces.deleteSpaceById('noSuchSpace000000000');
    assert.equal(r.status, 204);
});

step('deleteSpaceById: an edit member gets 403', async () => {
    need(S.duplicate, S.bobIsEditor);
    await rejectsWith(403, bob.spaces.deleteSpaceById(S.duplicate), 'bob (edit) deletes a space');
});

// ---------------------------------------------------------------------------------------------
// Transfers

step('transferSpace and transferCollection into a second organization', async () => {
    need(S.scratch, S.advanced, S.deepDive);
    const created = await raw('createOrganization', ALICE_TOKEN, 'POST', '/orgs', { title: 'Acme Archive' });
    assert.equal(created.status, 201, JSON.stringify(created.data));
    checkOrganization(created.data);
    S.org2 = created.data.id;
    assert.notEqual(S.org2, S.org);

    const orgs = await alice.orgs.listOrganizationsForAuthenticatedUser();
    assert.ok(ids(orgs.data.items).includes(S.org) && ids(orgs.data.items).includes(S.org2));

    const ts = await alice.spaces.transferSpace(S.scratch, { organization: S.org2 });
    assert.equal(ts.status, 200);
    checkSpace(ts.data);
    assert.equal(ts.data.id, S.scratch);
    assert.equal(ts.data.organization, S.org2);
    assert.equal(ts.data.parent, undefined);
    const in2 = await alice.orgs.listSpacesInOrganizationById(S.org2);
    assert.deepEqual(ids(in2.data.items), [S.scratch]);
    const in1 = await alice.orgs.listSpacesInOrganizationById(S.org);
    assert.ok(!ids(in1.data.items).includes(S.scratch), 'gone from the first organization');

    const tc = await alice.collections.transferCollection(S.advanced, { organization: S.org2 });
    assert.equal(tc.status, 200);
    checkCollection(tc.data);
    assert.equal(tc.data.id, S.advanced);
    assert.equal(tc.data.organization, S.org2);
    assert.equal(tc.data.parent, undefined);
    const deep = await alice.spaces.getSpaceById(S.deepDive);
    assert.equal(deep.data.organization, S.org2, "the collection's spaces move with it");
    assert.equal(deep.data.parent, S.advanced);
    const colls2 = await alice.orgs.listCollectionsInOrganizationById(S.org2);
    assert.deepEqual(ids(colls2.data.items), [S.advanced]);
    const colls1 = await alice.orgs.listCollectionsInOrganizationById(S.org);
    assert.ok(!ids(colls1.data.items).includes(S.advanced));
});

step('transfers: a non-member of the target cannot see it; a no-op transfer is refused', async () => {
    need(S.org2, S.advanced, S.scratch, S.bobOrg, S.faq);
    await rejectsWith(404, bob.collections.getCollectionById(S.advanced),
        'bob reads a collection of an organization he is not in');
    await rejectsWith(404, bob.spaces.getSpaceById(S.scratch),
        'bob reads a space of an organization he is not in');
    // The target is a body field: 400 or 404 both do, as long as an organization the caller is
    // not in answers exactly like one that does not exist.
    const foreign = await rejectsWithAnyOf([400, 404], alice.spaces.transferSpace(S.faq, { organization: S.bobOrg }),
        "alice transfers a space into bob's organization, where she is not a member");
    const unknown = await rejectsWithAnyOf([400, 404], alice.spaces.transferSpace(S.faq, { organization: 'noSuchOrg00000000000' }),
        'alice transfers a space into an organization that does not exist');
    assert.equal(foreign.code, unknown.code, 'a foreign organization answers like an unknown one');
    const foreignColl = await rejectsWithAnyOf([400, 404],
        alice.collections.transferCollection(S.advanced, { organization: S.bobOrg }),
        "alice transfers a collection into bob's organization");
    assert.equal(foreignColl.code, unknown.code);
    await rejectsWith(400, alice.spaces.transferSpace(S.scratch, { organization: S.org2 }),
        'transfer to the organization the space is already in');
});

// ---------------------------------------------------------------------------------------------
// SSO, invites, removals

step('setUserAsSSOMemberForOrganization (client: setUserAsSsoMemberForOrganization)', async () => {
    need(S.org, S.bobJoined);
    const r = await alice.orgs.setUserAsSsoMemberForOrganization(S.org, BOB_ID);
    assert.equal(r.status, 200);
    checkMember(r.data);
    assert.equal(r.data.id, BOB_ID);
    assert.equal(r.data.sso, true);
    const again = await alice.orgs.getMemberInOrganizationById(S.org, BOB_ID);
    assert.equal(again.data.sso, true);
});

step('deleteOrganizationInviteById: an unknown invite answers 204', async () => {
    need(S.org);
    const r = await alice.orgs.deleteOrganizationInviteById(S.org, 'noSuchInvite00000000');
    assert.equal(r.status, 204);
});

step('removeTeamFromOrganizationById', async () => {
    need(S.org, S.team);
    const r = await alice.orgs.removeTeamFromOrganizationById(S.org, S.team);
    assert.equal(r.status, 204);
    await rejectsWith(404, alice.orgs.getTeamInOrganizationById(S.org, S.team), 'reading a removed team');
    const list = await alice.orgs.listTeamsInOrganizationById(S.org);
    assert.ok(!ids(list.data.items).includes(S.team));
    const bobs = await alice.orgs.listTeamsForOrganizationMember(S.org, BOB_ID);
    assert.equal(bobs.data.items.length, 0);
    assert.equal(bobs.data.count, 0);
    const again = await alice.orgs.removeTeamFromOrganizationById(S.org, S.team);
    assert.equal(again.status, 204, 'removing a removed team is 204');
});

step('removeMemberFromOrganizationById: bob leaves; the last admin cannot', async () => {
    need(S.org, S.bobJoined, S.aliceId);
    const r = await alice.orgs.removeMemberFromOrganizationById(S.org, BOB_ID);
    assert.equal(r.status, 204);
    await rejectsWith(404, bob.orgs.getOrganizationById(S.org), 'bob reads the organization he left');
    await rejectsWith(404, alice.orgs.getMemberInOrganizationById(S.org, BOB_ID), 'reading a removed member');
    const members = await alice.orgs.listMembersInOrganizationById(S.org);
    assert.deepEqual(ids(members.data.items), [S.aliceId]);
    assert.equal(members.data.count, 1);
    const again = await alice.orgs.removeMemberFromOrganizationById(S.org, BOB_ID);
    assert.equal(again.status, 204, 'removing a non-member is 204');

    await rejectsWith(409, alice.orgs.removeMemberFromOrganizationById(S.org, S.aliceId),
        'removing the only admin');
    await rejectsWith(409, alice.orgs.updateMemberInOrganizationById(S.org, S.aliceId, { role: 'read' }),
        'demoting the only admin');
    S.bobLeft = true;
});

step('deleteCollectionById: the collection, and its spaces, are gone', async () => {
    need(S.guides, S.gettingStarted, S.faq);
    const r = await alice.collections.deleteCollectionById(S.guides);
    assert.equal(r.status, 204);
    await rejectsWith(404, alice.collections.getCollectionById(S.guides), 'reading a deleted collection');
    const colls = await alice.orgs.listCollectionsInOrganizationById(S.org);
    assert.ok(!ids(colls.data.items).includes(S.guides));
    const spaces = await alice.orgs.listSpacesInOrganizationById(S.org);
    for (const id of [S.gettingStarted, S.faq]) {
        assert.ok(!ids(spaces.data.items).includes(id), `space ${id} of the deleted collection is not listed`);
    }
    const again = await alice.collections.deleteCollectionById(S.guides);
    assert.equal(again.status, 204, 'deleting a deleted collection is 204');
});

// ---------------------------------------------------------------------------------------------
// Change requests and content (on a fresh space, "Handbook")

// Page bodies as stored: a new page's leading "# " heading becomes its title, not body.
const GUIDE_MD = '# Usage\n\nHow to use the product.\n';
const INSTALL_MD = 'Run `quire serve`.\n';
const INSTALL_DOCKER_MD = 'Run `docker run quire`.\n';
const INSTALL_SOURCE_MD = 'Build it with `go build`.\n';
const GUIDE_V2_MD = 'How to use the product, **step by step**.\n';

/**
 * updateChangeRequestContent through the 0.202.0 client (the 0.146.0 one lacks it). Answers
 * { status, data } whether it succeeded or not; with compat=false (the default here) data is a
 * ChangeRequestContentUpdate and refs maps the batch's page and file refs to their ids.
 */
async function applyChanges(token, spaceId, changeRequestId, changes, query = { compat: false }) {
    const api = kit.client(token, { latest: true });
    try {
        const res = await api.spaces.updateChangeRequestContent(spaceId, changeRequestId, { changes }, query);
        return { status: res.status, data: res.data, headers: res.headers, refs: batchRefs(changes, res.data) };
    } catch (e) {
        if (!(e instanceof GitBookAPIErrorLatest)) throw e;
        return { status: e.code, data: { error: { code: e.code, message: e.errorMessage } }, headers: e.response.headers };
    }
}

/** The ids a compat=false answer gave the batch's refs: pages from created_page, files by order. */
function batchRefs(changes, data) {
    const refs = {};
    if (!data || !Array.isArray(data.changes)) return refs;
    for (const c of data.changes) {
        if (c.object === 'created_page' && c.ref) refs[c.ref] = c.page.id;
    }
    const files = changes.filter((c) => c.operation === 'insert_files').flatMap((c) => c.files);
    assert.equal(data.insertedFiles.length, files.length, 'one inserted file per file sent');
    files.forEach((f, i) => { if (f.ref) refs[f.ref] = data.insertedFiles[i].id; });
    return refs;
}

/** Check a compat=false answer: the change request, then the outcome of each page. */
function checkContentUpdate(data, where = 'contentUpdate') {
    checkChangeRequest(has(data, 'changeRequest', 'object', where), `${where}.changeRequest`);
    for (const c of has(data, 'changes', 'array', where)) {
        assert.ok(['created_page', 'updated_page', 'deleted_page'].includes(c.object), `${where}: outcome ${JSON.stringify(c)}`);
        if (c.object === 'deleted_page') {
            assert.equal(typeof c.page, 'string');
        } else {
            assert.equal(c.page.object, 'page');
            assert.match(c.page.urls.location, new RegExp(`^${API}/spaces/.+/content/page/${c.page.id}$`));
        }
    }
    for (const f of has(data, 'insertedFiles', 'array', where)) {
        for (const k of ['id', 'name', 'contentType', 'downloadURL']) has(f, k, 'string', `${where}.insertedFiles`);
    }
    return data;
}

/** The Guide > Install tree the first change request writes. */
const guideTree = () => [{
    id: S.guide, title: 'Guide', path: 'guide',
    pages: [{ id: S.install, title: 'Install', path: 'guide/install', pages: [] }],
}];

step('createChangeRequest: a fresh space gets change request number 1', async () => {
    need(S.org, S.aliceId);
    const sp = await alice.orgs.createSpace(S.org, { title: 'Handbook' });
    assert.equal(sp.status, 201);
    checkSpace(sp.data);
    assert.equal(sp.data.changeRequests, 0);
    S.handbook = sp.data.id;
    S.handbookRev0 = sp.data.revision;

    const r = await alice.spaces.createChangeRequest(S.handbook, { subject: 'Write the guide' });
    assert.equal(r.status, 201);
    checkChangeRequest(r.data);
    assert.equal(r.data.number, 1, 'the first change request of a space is number 1');
    assert.equal(r.data.status, 'open');
    assert.equal(r.data.subject, 'Write the guide');
    assert.equal(r.data.createdBy.id, S.aliceId);
    assert.equal(r.data.space, S.handbook);
    assert.equal(r.data.revisionInitial, S.handbookRev0, "it starts from the space's current revision");
    assert.equal(r.data.revision, S.handbookRev0, 'with no edits yet, its revision is the initial one');
    assert.equal(r.data.revisionMerged, undefined);
    assert.equal(r.data.outdated, false);
    assert.equal(r.data.comments, 0);
    S.cr1 = r.data.id;

    const space = await alice.spaces.getSpaceById(S.handbook);
    assert.equal(space.data.changeRequests, 1);
    assert.equal(space.data.changeRequestsOpen, 1);
    assert.equal(space.data.revision, S.handbookRev0, 'opening a change request leaves the content alone');
});

step('getChangeRequestById: by id and by number; unknown ones answer 404', async () => {
    need(S.handbook, S.cr1);
    const byId = await alice.spaces.getChangeRequestById(S.handbook, S.cr1);
    assert.equal(byId.status, 200);
    checkChangeRequest(byId.data);
    assert.equal(byId.data.id, S.cr1);
    assert.equal(byId.data.number, 1);

    const byNumber = await alice.spaces.getChangeRequestById(S.handbook, '1');
    assert.equal(byNumber.status, 200);
    checkChangeRequest(byNumber.data);
    assert.deepEqual(byNumber.data, byId.data, 'number 1 is the same change request');

    await rejectsWith(404, alice.spaces.getChangeRequestById(S.handbook, '99'), 'change request number 99');
    await rejectsWith(404, alice.spaces.getChangeRequestById(S.handbook, 'noSuchChangeRequest0'), 'unknown change request id');
    await rejectsWith(404, alice.spaces.getChangeRequestById('noSuchSpace000000000', '1'), 'change request of an unknown space');
});

step('updateChangeRequestContent (0.202.0 client): Guide and Install inserted', async () => {
    need(S.handbook, S.cr1);
    const r = await applyChanges(ALICE_TOKEN, S.handbook, S.cr1, [
        // No title: the leading heading is the title.
        { operation: 'insert_page', ref: 'guide', document: { markdown: '# Guide\n\n' + GUIDE_MD } },
        { operation: 'insert_page', ref: 'install', title: 'Install', into: 'guide', document: { markdown: INSTALL_MD } },
    ]);
    assert.equal(r.status, 200, JSON.stringify(r.data));
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
    checkContentUpdate(r.data);
    const revision = has(r.data.changeRequest, 'revision', 'id', 'contentUpdate.changeRequest');
    assert.notEqual(revision, S.handbookRev0, 'the batch makes a new revision');
    const refs = r.refs;
    assert.deepEqual(r.data.changes.map((c) => [c.object, c.ref]), [['created_page', 'guide'], ['created_page', 'install']]);
    assert.deepEqual(r.data.insertedFiles, []);
    assert.notEqual(refs.guide, refs.install);
    S.guide = refs.guide;
    S.install = refs.install;
    S.cr1Rev = revision;

    const cr = await alice.spaces.getChangeRequestById(S.handbook, S.cr1);
    checkChangeRequest(cr.data);
    assert.equal(cr.data.revision, revision, "the change request's revision is the batch's");
    assert.equal(cr.data.revisionInitial, S.handbookRev0, 'its initial revision stays');
    assert.equal(cr.data.status, 'open');

    const space = await alice.spaces.getSpaceById(S.handbook);
    assert.equal(space.data.revision, S.handbookRev0, "the space's content does not change before a merge");
});

step('updateChangeRequestContent: invalid batches answer 400 and apply nothing', async () => {
    need(S.handbook, S.cr1, S.cr1Rev);
    const empty = await applyChanges(ALICE_TOKEN, S.handbook, S.cr1, []);
    assert.equal(empty.status, 400, `an empty batch: ${JSON.stringify(empty.data)}`);
    assert.equal(empty.data?.error?.code, 400, JSON.stringify(empty.data));

    const noDocument = await applyChanges(ALICE_TOKEN, S.handbook, S.cr1, [{ operation: 'insert_page', title: 'X' }]);
    assert.equal(noDocument.status, 400, `insert_page without a document: ${JSON.stringify(noDocument.data)}`);

    const unknown = await applyChanges(ALICE_TOKEN, S.handbook, S.cr1, [
        { operation: 'insert_page', title: 'Extra', document: { markdown: 'extra' } },
        { operation: 'rename_page', page: S.guide },
    ]);
    assert.equal(unknown.status, 400, JSON.stringify(unknown.data));
    assert.match(unknown.data.error.message, /changes\[1\]\.operation/, 'the message names the change at fault');

    const oldShape = await applyChanges(ALICE_TOKEN, S.handbook, S.cr1, [{ type: 'insert_page', title: 'Old', document: { markdown: '' } }]);
    assert.equal(oldShape.status, 400, `quire's former "type" field: ${JSON.stringify(oldShape.data)}`);

    const half = await applyChanges(ALICE_TOKEN, S.handbook, S.cr1, [
        { operation: 'insert_page', title: 'Extra', document: { markdown: 'extra' } },
        { operation: 'update_page', page: 'noSuchPage0000000000', title: 'Nope' },
    ]);
    assert.equal(half.status, 400, `a batch whose second change names an unknown page: ${JSON.stringify(half.data)}`);
    assert.equal(half.data?.error?.code, 400, JSON.stringify(half.data));
    assert.match(half.data.error.message, /changes\[1\]\.page/);

    const cr = await alice.spaces.getChangeRequestById(S.handbook, S.cr1);
    assert.equal(cr.data.revision, S.cr1Rev, 'a refused batch makes no revision');
    const pages = await alice.spaces.listPagesInChangeRequest(S.handbook, S.cr1);
    assert.deepEqual(outline(pages.data.pages), guideTree(), 'the first change of a refused batch is not kept');

    const anon = await applyChanges(undefined, S.handbook, S.cr1, [{ operation: 'insert_page', title: 'Anon', document: { markdown: '' } }]);
    assert.equal(anon.status, 401, JSON.stringify(anon.data));
});

step('getRevisionOfChangeRequestById and listPagesInChangeRequest: the page tree', async () => {
    need(S.handbook, S.cr1, S.cr1Rev, S.guide, S.install);
    const rev = await alice.spaces.getRevisionOfChangeRequestById(S.handbook, S.cr1);
    assert.equal(rev.status, 200);
    checkRevision(rev.data, 'crRevision');
    assert.equal(rev.data.id, S.cr1Rev);
    assert.equal(rev.data.type, 'edits');
    assert.deepEqual(rev.data.parents, [S.handbookRev0], 'an edit has the previous revision as its parent');
    assert.deepEqual(outline(rev.data.pages), guideTree());

    const byNumber = await alice.spaces.getRevisionOfChangeRequestById(S.handbook, '1', { metadata: false, computed: false });
    assert.equal(byNumber.status, 200);
    assert.equal(byNumber.data.id, S.cr1Rev, 'the change request by number has the same revision');

    const list = await alice.spaces.listPagesInChangeRequest(S.handbook, S.cr1);
    assert.equal(list.status, 200);
    assert.deepEqual(outline(checkPageTree(list.data, 'crPages')), guideTree());
    const [guide] = list.data.pages;
    assert.equal(guide.slug, 'guide');
    assert.equal(guide.kind, 'sheet');
    assert.equal(guide.type, 'document');
    assert.equal(guide.pages[0].slug, 'install');
});

step('getPageInChangeRequestById: format markdown gives the markdown, the default a document', async () => {
    need(S.handbook, S.cr1, S.guide, S.install);
    const md = await alice.spaces.getPageInChangeRequestById(S.handbook, S.cr1, S.guide, { format: 'markdown' });
    assert.equal(md.status, 200);
    checkPage(md.data, 'crPage(markdown)');
    assert.equal(md.data.id, S.guide);
    assert.equal(md.data.title, 'Guide');
    assert.equal(md.data.slug, 'guide');
    assert.equal(md.data.path, 'guide');
    assert.equal(md.data.kind, 'sheet');
    assert.equal(md.data.type, 'document');
    assert.equal(md.data.markdown, GUIDE_MD, 'the markdown comes back exactly');
    assert.equal(md.data.document, undefined, 'format=markdown answers no document');
    assert.deepEqual(ids(md.data.pages), [S.install], 'the page carries its subpages');

    const doc = await alice.spaces.getPageInChangeRequestById(S.handbook, S.cr1, S.guide);
    assert.equal(doc.status, 200);
    checkPage(doc.data, 'crPage(document)');
    assert.equal(doc.data.id, S.guide);
    assert.equal(doc.data.markdown, undefined, 'the default format answers no markdown');
    checkDocument(has(doc.data, 'document', 'object', 'crPage(document)'), 'crPage.document');
    assert.ok(doc.data.document.nodes.length > 0, 'the document has nodes');
    assert.equal(doc.data.document.nodes[0].object, 'block');
    assert.equal(doc.data.document.nodes[0].type, 'heading-1', '# Usage is a heading-1 block');
    assert.deepEqual(doc.data.document.nodes.map(blockText), ['Usage', 'How to use the product.'],
        `the document's blocks: ${JSON.stringify(doc.data.document)}`);

    const explicit = await alice.spaces.getPageInChangeRequestById(S.handbook, S.cr1, S.guide, { format: 'document' });
    assert.deepEqual(explicit.data.document, doc.data.document, 'format=document is the default');

    const install = await alice.spaces.getPageInChangeRequestById(S.handbook, '1', S.install, { format: 'markdown' });
    assert.equal(install.data.markdown, INSTALL_MD);
    assert.equal(install.data.path, 'guide/install');
    assert.deepEqual(install.data.pages, []);

    await rejectsWith(404, alice.spaces.getPageInChangeRequestById(S.handbook, S.cr1, 'noSuchPage0000000000'),
        'unknown page in a change request');
    await rejectsWith(400, alice.spaces.getPageInChangeRequestById(S.handbook, S.cr1, S.guide, { format: 'html' }),
        'format=html');
});

step('getPageInChangeRequestByPath: guide, and guide/install sent encoded (guide%2Finstall)', async () => {
    need(S.handbook, S.cr1, S.guide, S.install);
    const top = await alice.spaces.getPageInChangeRequestByPath(S.handbook, S.cr1, 'guide', { format: 'markdown' });
    assert.equal(top.status, 200);
    checkPage(top.data, 'crPageByPath');
    assert.equal(top.data.id, S.guide);
    assert.equal(top.data.markdown, GUIDE_MD);

    const nested = await alice.spaces.getPageInChangeRequestByPath(S.handbook, S.cr1,
        encodeURIComponent('guide/install'), { format: 'markdown' });
    assert.equal(nested.status, 200);
    checkPage(nested.data, 'crPageByPath(encoded)');
    assert.equal(nested.data.id, S.install);
    assert.equal(nested.data.path, 'guide/install');
    assert.equal(nested.data.markdown, INSTALL_MD);

    await rejectsWith(404, alice.spaces.getPageInChangeRequestByPath(S.handbook, S.cr1, 'nope'),
        'a path no page has');
});

step('getPageInChangeRequestByPath: guide/install as the client sends it (slash not encoded)', async () => {
    need(S.handbook, S.cr1, S.install);
    // The 0.146.0 client puts pagePath into the URL as it is: .../content/path/guide/install
    const r = await alice.spaces.getPageInChangeRequestByPath(S.handbook, S.cr1, 'guide/install', { format: 'markdown' });
    assert.equal(r.status, 200);
    checkPage(r.data, 'crPageByPath(raw slash)');
    assert.equal(r.data.id, S.install);
    assert.equal(r.data.markdown, INSTALL_MD);
    await rejectsWith(404, alice.spaces.getPageInChangeRequestByPath(S.handbook, S.cr1, 'guide/nope'),
        'a nested path no page has');
});

step("getCurrentRevision, listPages, getPageById, getPageByPath: the space has no pages before the merge", async () => {
    need(S.handbook, S.handbookRev0, S.guide);
    const rev = await alice.spaces.getCurrentRevision(S.handbook);
    assert.equal(rev.status, 200);
    checkRevision(rev.data, 'currentRevision');
    assert.equal(rev.data.id, S.handbookRev0);
    assert.deepEqual(rev.data.pages, []);

    const list = await alice.spaces.listPages(S.handbook);
    assert.equal(list.status, 200);
    assert.deepEqual(checkPageTree(list.data), [], 'no pages yet');

    await rejectsWith(404, alice.spaces.getPageById(S.handbook, S.guide), 'a page that exists only in the change request');
    await rejectsWith(404, alice.spaces.getPageByPath(S.handbook, 'guide'), 'a path that exists only in the change request');
});

step('mergeChangeRequest: result merge; the change request is merged', async () => {
    need(S.handbook, S.cr1, S.cr1Rev);
    const m = await alice.spaces.mergeChangeRequest(S.handbook, S.cr1);
    assert.equal(m.status, 200);
    assert.equal(has(m.data, 'result', 'string', 'mergeResult'), 'merge');
    const revision = has(m.data, 'revision', 'id', 'mergeResult');
    assert.notEqual(revision, S.handbookRev0);
    assert.notEqual(revision, S.cr1Rev, 'a merge writes a revision of its own');
    S.merge1 = revision;

    const cr = await alice.spaces.getChangeRequestById(S.handbook, '1');
    checkChangeRequest(cr.data);
    assert.equal(cr.data.id, S.cr1);
    assert.equal(cr.data.status, 'merged');
    assert.equal(cr.data.revisionMerged, revision, 'revisionMerged is the revision the merge wrote');
    assert.equal(cr.data.outdated, false);

    const space = await alice.spaces.getSpaceById(S.handbook);
    checkSpace(space.data);
    assert.equal(space.data.revision, revision, "the merge is the space's current revision");
    assert.equal(space.data.changeRequests, 1);
    assert.equal(space.data.changeRequestsOpen, 0);
});

step('after the merge: getCurrentRevision (two parents), listPages, getPageById, getPageByPath', async () => {
    need(S.handbook, S.merge1, S.cr1Rev, S.guide, S.install);
    const rev = await alice.spaces.getCurrentRevision(S.handbook, { metadata: false, computed: false });
    assert.equal(rev.status, 200);
    checkRevision(rev.data, 'currentRevision');
    assert.equal(rev.data.id, S.merge1);
    assert.equal(rev.data.type, 'merge');
    assert.equal(rev.data.parents.length, 2, `a merge has two parents: ${JSON.stringify(rev.data.parents)}`);
    assert.deepEqual([...rev.data.parents].sort(), [S.handbookRev0, S.cr1Rev].sort(),
        "the parents are the space's previous revision and the change request's");
    if (rev.data.mergedFrom !== undefined) assert.equal(rev.data.mergedFrom.id, S.cr1);
    assert.deepEqual(outline(rev.data.pages), guideTree(), 'the pages keep their ids through the merge');

    const list = await alice.spaces.listPages(S.handbook);
    assert.equal(list.status, 200);
    assert.deepEqual(outline(checkPageTree(list.data)), guideTree());

    const md = await alice.spaces.getPageById(S.handbook, S.guide, { format: 'markdown' });
    assert.equal(md.status, 200);
    checkPage(md.data, 'page(markdown)');
    assert.equal(md.data.id, S.guide);
    assert.equal(md.data.path, 'guide');
    assert.equal(md.data.markdown, GUIDE_MD);
    assert.deepEqual(ids(md.data.pages), [S.install]);

    const doc = await alice.spaces.getPageById(S.handbook, S.install, { evaluated: true });
    assert.equal(doc.status, 200);
    checkPage(doc.data, 'page(document)');
    assert.equal(doc.data.markdown, undefined);
    checkDocument(has(doc.data, 'document', 'object', 'page(document)'), 'page.document');
    assert.deepEqual(doc.data.document.nodes.map(blockText), ['Run quire serve.'],
        `the document's blocks: ${JSON.stringify(doc.data.document)}`);

    const byPath = await alice.spaces.getPageByPath(S.handbook, encodeURIComponent('guide/install'), { format: 'markdown' });
    assert.equal(byPath.status, 200);
    checkPage(byPath.data, 'pageByPath(encoded)');
    assert.equal(byPath.data.id, S.install);
    assert.equal(byPath.data.markdown, INSTALL_MD);
    const top = await alice.spaces.getPageByPath(S.handbook, 'guide');
    assert.equal(top.data.id, S.guide);

    await rejectsWith(404, alice.spaces.getPageById(S.handbook, 'noSuchPage0000000000'), 'unknown page');
    await rejectsWith(404, alice.spaces.getPageByPath(S.handbook, 'nope'), 'unknown path');
});

step('getPageByPath: guide/install as the client sends it (slash not encoded)', async () => {
    need(S.handbook, S.merge1, S.install);
    const r = await alice.spaces.getPageByPath(S.handbook, 'guide/install', { format: 'markdown' });
    assert.equal(r.status, 200);
    checkPage(r.data, 'pageByPath(raw slash)');
    assert.equal(r.data.id, S.install);
    assert.equal(r.data.path, 'guide/install');
    assert.equal(r.data.markdown, INSTALL_MD);
});

step('two change requests edit Install differently: the first merges, the second answers conflicts', async () => {
    need(S.handbook, S.merge1, S.guide, S.install);
    const open = async (subject, number) => {
        const r = await alice.spaces.createChangeRequest(S.handbook, { subject });
        assert.equal(r.status, 201);
        checkChangeRequest(r.data);
        assert.equal(r.data.number, number, `"${subject}" is number ${number}`);
        assert.equal(r.data.revisionInitial, S.merge1);
        return r.data.id;
    };
    S.cr2 = await open('Install with Docker', 2);
    S.cr3 = await open('Install from source', 3);
    S.cr4 = await open('Polish the guide', 4);

    for (const [cr, changes] of [
        [S.cr2, [{ operation: 'update_page', page: S.install, document: { markdown: INSTALL_DOCKER_MD } }]],
        [S.cr3, [{ operation: 'update_page', page: S.install, document: { markdown: INSTALL_SOURCE_MD } }]],
        [S.cr4, [{ operation: 'update_page', page: S.guide, document: { markdown: GUIDE_V2_MD } }]],
    ]) {
        // compat left to its default (true) answers the change request itself.
        const compatDefault = cr === S.cr2;
        const r = await applyChanges(ALICE_TOKEN, S.handbook, cr, changes, compatDefault ? {} : { compat: false });
        assert.equal(r.status, 200, JSON.stringify(r.data));
        if (compatDefault) {
            checkChangeRequest(r.data);
            assert.equal(r.data.id, cr);
        } else {
            checkContentUpdate(r.data);
            assert.deepEqual(r.data.changes.map((c) => [c.object, c.page.id]), [['updated_page', changes[0].page]]);
        }
    }

    const m2 = await alice.spaces.mergeChangeRequest(S.handbook, S.cr2);
    assert.equal(m2.status, 200);
    assert.equal(m2.data.result, 'merge');
    S.merge2 = m2.data.revision;
    assert.notEqual(S.merge2, S.merge1);

    const cr3 = await alice.spaces.getChangeRequestById(S.handbook, S.cr3);
    checkChangeRequest(cr3.data);
    assert.equal(cr3.data.outdated, true, "the space moved on since the change request's base");
    S.cr3Rev = cr3.data.revision;

    const m3 = await alice.spaces.mergeChangeRequest(S.handbook, S.cr3);
    assert.equal(m3.status, 200);
    assert.equal(m3.data.result, 'conflicts', `merging a conflicting change request: ${JSON.stringify(m3.data)}`);
    assert.equal(m3.data.revision, S.merge2, "with conflicts the answer carries the space's unchanged revision");

    const space = await alice.spaces.getCurrentRevision(S.handbook);
    assert.equal(space.data.id, S.merge2, 'a conflicting merge changes nothing');
    const install = await alice.spaces.getPageById(S.handbook, S.install, { format: 'markdown' });
    assert.equal(install.data.markdown, INSTALL_DOCKER_MD, 'the space keeps the first merge');
    const after = await alice.spaces.getChangeRequestById(S.handbook, '3');
    assert.equal(after.data.status, 'open', 'a change request with conflicts stays open');
    assert.equal(after.data.revisionMerged, undefined);
    assert.equal(after.data.revision, S.cr3Rev);
    const own = await alice.spaces.getPageInChangeRequestById(S.handbook, S.cr3, S.install, { format: 'markdown' });
    assert.equal(own.data.markdown, INSTALL_SOURCE_MD, 'the change request keeps its own edit');
});

step('updateChangeRequest: 409 on the conflicting one; another pulls the space in', async () => {
    need(S.handbook, S.cr3, S.cr3Rev, S.cr4, S.merge2);
    await rejectsWith(409, alice.spaces.updateChangeRequest(S.handbook, S.cr3),
        'updating a change request that conflicts with the space');
    const cr3 = await alice.spaces.getChangeRequestById(S.handbook, S.cr3);
    assert.equal(cr3.data.revision, S.cr3Rev, 'a refused update changes nothing');

    const before = await alice.spaces.getChangeRequestById(S.handbook, S.cr4);
    assert.equal(before.data.outdated, true);
    const u = await alice.spaces.updateChangeRequest(S.handbook, S.cr4);
    assert.equal(u.status, 200);
    assert.equal(has(u.data, 'result', 'string', 'updateResult'), 'update');
    const revision = has(u.data, 'revision', 'id', 'updateResult');
    assert.notEqual(revision, before.data.revision, 'an update writes a revision');

    const cr4 = await alice.spaces.getChangeRequestById(S.handbook, '4');
    checkChangeRequest(cr4.data);
    assert.equal(cr4.data.revision, revision);
    assert.equal(cr4.data.outdated, false, 'up to date with the space after the update');
    assert.equal(cr4.data.revisionMergedAncestor, S.merge2, 'the space revision pulled in is the new base');

    const rev = await alice.spaces.getRevisionOfChangeRequestById(S.handbook, S.cr4);
    checkRevision(rev.data, 'updateRevision');
    assert.equal(rev.data.type, 'update');
    assert.deepEqual([...rev.data.parents].sort(), [before.data.revision, S.merge2].sort());
    const install = await alice.spaces.getPageInChangeRequestById(S.handbook, S.cr4, S.install, { format: 'markdown' });
    assert.equal(install.data.markdown, INSTALL_DOCKER_MD, "the space's Install came in");
    const guide = await alice.spaces.getPageInChangeRequestById(S.handbook, S.cr4, S.guide, { format: 'markdown' });
    assert.equal(guide.data.markdown, GUIDE_V2_MD, "the change request's own edit stays");

    const again = await alice.spaces.updateChangeRequest(S.handbook, S.cr4);
    assert.equal(again.status, 200);
    assert.equal(again.data.result, 'update');
    assert.equal(again.data.revision, revision, 'an up-to-date change request answers its revision');
});

step('updateChangeRequestById: subject, status draft, description; listChangeRequestsForSpace by status', async () => {
    need(S.handbook, S.cr1, S.cr2, S.cr3, S.cr4);
    const r = await alice.spaces.updateChangeRequestById(S.handbook, S.cr4,
        { status: 'draft', subject: 'Polish the guide (WIP)' });
    assert.equal(r.status, 200);
    checkChangeRequest(r.data);
    assert.equal(r.data.id, S.cr4);
    assert.equal(r.data.status, 'draft');
    assert.equal(r.data.subject, 'Polish the guide (WIP)');
    const get = await alice.spaces.getChangeRequestById(S.handbook, '4');
    assert.equal(get.data.status, 'draft');
    assert.equal(get.data.subject, 'Polish the guide (WIP)');

    const description = {
        object: 'document',
        data: { schemaVersion: 1 },
        nodes: [{
            object: 'block', type: 'paragraph', data: {},
            nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Building from source.', marks: [] }] }],
        }],
    };
    const d = await alice.spaces.updateChangeRequestById(S.handbook, S.cr3, { description });
    assert.equal(d.status, 200);
    checkChangeRequest(d.data);
    checkDocument(has(d.data, 'description', 'object', 'changeRequest'), 'changeRequest.description');
    assert.ok(JSON.stringify(d.data.description).includes('Building from source.'));
    assert.equal(d.data.status, 'open', 'an absent status is left alone');
    assert.equal(d.data.subject, 'Install from source', 'an absent subject is left alone');

    const drafts = await alice.spaces.listChangeRequestsForSpace(S.handbook, { status: 'draft' });
    assert.equal(drafts.status, 200);
    assert.deepEqual(ids(checkList(drafts.data, checkChangeRequest, 'draftChangeRequests')), [S.cr4]);
    assert.equal(drafts.data.count, 1);

    const open = await alice.spaces.listChangeRequestsForSpace(S.handbook);
    assert.deepEqual(ids(checkList(open.data, checkChangeRequest, 'openChangeRequests')), [S.cr3],
        'the default status is open');
    assert.equal(open.data.count, 1);

    const merged = await alice.spaces.listChangeRequestsForSpace(S.handbook, { status: 'merged' });
    assert.deepEqual(ids(checkList(merged.data, checkChangeRequest, 'mergedChangeRequests')), [S.cr2, S.cr1],
        'newest first');
    assert.equal(merged.data.count, 2);
    const p1 = await alice.spaces.listChangeRequestsForSpace(S.handbook, { status: 'merged', limit: 1 });
    assert.deepEqual(ids(p1.data.items), [S.cr2]);
    assert.equal(p1.data.count, 2);
    assert.ok(p1.data.next?.page, 'a first page of 1 out of 2 has next.page');
    const p2 = await alice.spaces.listChangeRequestsForSpace(S.handbook,
        { status: 'merged', limit: 1, page: p1.data.next.page });
    assert.deepEqual(ids(p2.data.items), [S.cr1]);
    assert.equal(p2.data.next, undefined);

    const space = await alice.spaces.getSpaceById(S.handbook);
    assert.equal(space.data.changeRequests, 4);
    assert.equal(space.data.changeRequestsOpen, 1);
    assert.equal(space.data.changeRequestsDraft, 1);

    await rejectsWith(409, alice.spaces.updateChangeRequestById(S.handbook, S.cr1, { status: 'open' }),
        'reopening a merged change request');
    await rejectsWith(400, alice.spaces.updateChangeRequestById(S.handbook, S.cr3, { status: 'merged' }),
        'status merged is not settable');
    const late = await applyChanges(ALICE_TOKEN, S.handbook, S.cr1, [{ operation: 'insert_page', title: 'Late', document: { markdown: '' } }]);
    assert.equal(late.status, 409, `content for a merged change request: ${JSON.stringify(late.data)}`);
    assert.equal(late.data?.error?.code, 409, JSON.stringify(late.data));
});

step('listChangeRequestsForOrganization: change requests across the spaces of the organization', async () => {
    need(S.org, S.aliceId, S.handbook, S.cr1, S.cr2, S.cr3, S.cr4);
    const sp = await alice.orgs.createSpace(S.org, { title: 'Release notes' });
    assert.equal(sp.status, 201);
    S.releaseNotes = sp.data.id;
    const rn = await alice.spaces.createChangeRequest(S.releaseNotes, { subject: 'Notes for 1.0' });
    assert.equal(rn.status, 201);
    checkChangeRequest(rn.data);
    assert.equal(rn.data.number, 1, 'numbers count per space');
    S.rn1 = rn.data.id;

    const open = await alice.orgs.listChangeRequestsForOrganization(S.org);
    assert.equal(open.status, 200);
    const items = checkList(open.data, checkChangeRequest, 'orgChangeRequests');
    assert.deepEqual(ids(items), [S.rn1, S.cr3], 'the open ones of both spaces, newest first');
    assert.equal(open.data.count, 2);
    assert.deepEqual(items.map((c) => c.space), [S.releaseNotes, S.handbook]);

    const drafts = await alice.orgs.listChangeRequestsForOrganization(S.org, { status: 'draft' });
    assert.deepEqual(ids(drafts.data.items), [S.cr4]);
    assert.equal(drafts.data.count, 1);
    const merged = await alice.orgs.listChangeRequestsForOrganization(S.org, { status: 'merged' });
    assert.deepEqual(ids(merged.data.items), [S.cr2, S.cr1]);
    assert.equal(merged.data.count, 2);

    const walked = [];
    let page;
    for (let i = 0; i < 5; i++) {
        const r = await alice.orgs.listChangeRequestsForOrganization(S.org, { limit: 1, page });
        assert.equal(r.data.count, 2, 'count is the total, on every page');
        assert.ok(r.data.items.length <= 1);
        walked.push(...ids(r.data.items));
        page = r.data.next?.page;
        if (!page) break;
    }
    assert.deepEqual(walked, [S.rn1, S.cr3], 'paging one by one gives the same items');

    const mine = await alice.orgs.listChangeRequestsForOrganization(S.org, { creator: S.aliceId });
    assert.equal(mine.data.count, 2, 'creator=alice');
    const bobs = await alice.orgs.listChangeRequestsForOrganization(S.org, { creator: BOB_ID });
    assert.deepEqual(bobs.data.items, []);
    assert.equal(bobs.data.count, 0);
    const contributed = await alice.orgs.listChangeRequestsForOrganization(S.org, { contributor: S.aliceId });
    assert.deepEqual(ids(contributed.data.items), [S.cr3], 'contributor=alice: the open one she wrote content to');

    if (S.org2) {
        const other = await alice.orgs.listChangeRequestsForOrganization(S.org2);
        assert.equal(other.status, 200);
        assert.deepEqual(other.data.items, [], 'another organization lists none of them');
        assert.equal(other.data.count, 0);
    }
    await rejectsWith(400, alice.orgs.listChangeRequestsForOrganization(S.org, { status: 'closed' }), 'status=closed');
    await rejectsWith(404, alice.orgs.listChangeRequestsForOrganization('noSuchOrg00000000000'), 'unknown organization');
});

step('change requests and content: a non-member gets 404, no token 401', async () => {
    need(S.org, S.handbook, S.cr3, S.guide, S.bobLeft);
    await rejectsWith(404, bob.spaces.getChangeRequestById(S.handbook, S.cr3), 'bob reads a change request');
    await rejectsWith(404, bob.spaces.listChangeRequestsForSpace(S.handbook), 'bob lists change requests');
    await rejectsWith(404, bob.spaces.createChangeRequest(S.handbook, { subject: 'Bob' }), 'bob opens a change request');
    await rejectsWith(404, bob.spaces.mergeChangeRequest(S.handbook, S.cr3), 'bob merges');
    await rejectsWith(404, bob.spaces.getCurrentRevision(S.handbook), 'bob reads the content');
    await rejectsWith(404, bob.spaces.listPages(S.handbook), 'bob lists the pages');
    await rejectsWith(404, bob.spaces.getPageById(S.handbook, S.guide), 'bob reads a page');
    await rejectsWith(404, bob.orgs.listChangeRequestsForOrganization(S.org), "bob lists the organization's change requests");
    const batch = await applyChanges(BOB_TOKEN, S.handbook, S.cr3, [{ operation: 'insert_page', title: 'Bob', document: { markdown: '' } }]);
    assert.equal(batch.status, 404, `bob writes content: ${JSON.stringify(batch.data)}`);
    await rejectsWith(401, anonymous.spaces.getCurrentRevision(S.handbook), 'content without a token');
    await rejectsWith(401, anonymous.spaces.listChangeRequestsForSpace(S.handbook), 'change requests without a token');
});

// ---------------------------------------------------------------------------------------------
// Errors through the client

step('getSpaceById on an unknown id rejects with GitBookAPIError 404', async () => {
    const err = await rejectsWith(404, alice.spaces.getSpaceById('noSuchSpace000000000'), 'GET unknown space');
    assert.equal(err.name, 'GitBookAPIError');
    assert.ok(err.message.includes('[404]'), err.message);

    const r = await fetch(`${API}/spaces/noSuchSpace000000000`, { headers: { Authorization: `Bearer ${ALICE_TOKEN}` } });
    assert.equal(r.status, 404);
    assert.match(r.headers.get('content-type') ?? '', /application\/json/);
    const body = await r.json();
    assert.equal(body?.error?.code, 404, JSON.stringify(body));
    assert.equal(typeof body.error.message, 'string');

    const route = await fetch(`${API}/no/such/route`, { headers: { Authorization: `Bearer ${ALICE_TOKEN}` } });
    assert.equal(route.status, 404);
    const rb = await route.json();
    assert.equal(rb?.error?.code, 404, `unknown route: ${JSON.stringify(rb)}`);
});

step('searchSpaceContent and searchOrganizationContent find the merged pages', async () => {
    need(S.org, S.handbook, S.guide);
    const r = await alice.spaces.searchSpaceContent(S.handbook, { query: 'product' });
    assert.equal(r.status, 200);
    assert.equal(typeof r.data.count, 'number');
    assert.ok(r.data.items.length >= 1, 'the Guide page is found');
    const guide = r.data.items.find((p) => p.id === S.guide);
    assert.ok(guide, 'the Guide page is among the results');
    assert.equal(guide.path, 'guide');
    assert.equal(typeof guide.urls.app, 'string');
    assert.ok(Array.isArray(guide.sections) && guide.sections.length >= 1, 'with its matching section');
    for (const sec of guide.sections) {
        for (const k of ['id', 'title', 'path', 'body']) assert.equal(typeof sec[k], 'string', `section.${k}`);
    }
    const none = await alice.spaces.searchSpaceContent(S.handbook, { query: 'zeppelin' });
    assert.equal(none.data.count, 0);
    assert.deepEqual(none.data.items, []);

    const o = await alice.orgs.searchOrganizationContent(S.org, { query: 'product' });
    assert.equal(o.status, 200);
    const hb = o.data.items.find((sp) => sp.id === S.handbook);
    assert.ok(hb, 'the Handbook space is among the organization results');
    assert.equal(hb.title, 'Handbook');
    assert.ok(hb.pages.some((p) => p.id === S.guide), 'with the Guide page');
    await rejectsWith(400, alice.spaces.searchSpaceContent(S.handbook, { query: 'x'.repeat(513) }), 'a query over 512 characters');
});

step('updateChangeRequestContent (0.202.0 client): each operation, metadata, files, reverts, atomic refusals', async () => {
    need(S.org);
    const sp = await alice.orgs.createSpace(S.org, { title: 'Batches' });
    const space = sp.data.id;
    const cr = (await alice.spaces.createChangeRequest(space, { subject: 'Every operation' })).data.id;
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
        '1f15c4890000000d49444154789c6360000000000500010d0a2db40000000049454e44ae426082', 'hex');

    // insert_page with frontmatter and metadata, insert_files (base64) linked by ref.
    const first = await applyChanges(ALICE_TOKEN, space, cr, [
        { operation: 'insert_page', ref: 'intro', title: 'Ignored', emoji: '👋', document: {
            markdown: '---\ntitle: Introduction\ndescription: Where to start\nicon: book\nnoIndex: true\n---\n# Welcome\n\n![diagram](./diagram.png) and [next](./next.md)\n' } },
        { operation: 'insert_page', ref: 'next', document: { markdown: '# Next steps\n\nMore.\n' }, hidden: true, noRobotsIndex: true,
            condition: 'visitor.claims.plan === "pro"' },
        { operation: 'insert_files', files: [{ ref: 'diagram.png', name: 'diagram.png', contentType: 'image/png', base64: png.toString('base64') }] },
    ]);
    assert.equal(first.status, 200, JSON.stringify(first.data));
    checkContentUpdate(first.data);
    assert.deepEqual(first.data.changes.map((c) => [c.object, c.ref]), [['created_page', 'intro'], ['created_page', 'next']]);
    assert.equal(first.data.insertedFiles.length, 1);
    assert.deepEqual(first.data.insertedFiles[0].dimensions, { width: 1, height: 1 });
    const { intro, next, 'diagram.png': diagram } = first.refs;
    const rev1 = first.data.changeRequest.revision;

    const introPage = await alice.spaces.getPageInChangeRequestById(space, cr, intro, { format: 'markdown' });
    assert.equal(introPage.data.title, 'Introduction', 'the frontmatter title wins over the field');
    assert.equal(introPage.data.description, 'Where to start');
    assert.equal(introPage.data.emoji, '👋');
    assert.equal(introPage.data.icon, 'book');
    assert.equal(introPage.data.noIndex, true);
    assert.equal(introPage.data.markdown, `# Welcome\n\n![diagram](/files/${diagram}) and [next](/pages/${next})\n`,
        'frontmatter is not body; refs become ids');
    const nextPage = await alice.spaces.getPageInChangeRequestById(space, cr, next, { format: 'markdown' });
    assert.equal(nextPage.data.title, 'Next steps', 'the leading heading is the title');
    assert.equal(nextPage.data.markdown, 'More.\n');
    assert.equal(nextPage.data.hidden, true);
    assert.equal(nextPage.data.noRobotsIndex, true);
    assert.equal(nextPage.data.condition, 'visitor.claims.plan === "pro"');

    // update_page (metadata, move) and delete_page; the outcomes in the order first touched.
    const second = await applyChanges(ALICE_TOKEN, space, cr, [
        { operation: 'update_page', page: next, title: 'Going further', slug: 'further', emoji: '', condition: '', into: intro },
        { operation: 'delete_page', page: intro },
    ]);
    assert.equal(second.status, 200, JSON.stringify(second.data));
    checkContentUpdate(second.data);
    assert.deepEqual(second.data.changes.map((c) => [c.object, typeof c.page === 'string' ? c.page : c.page.id]),
        [['deleted_page', next], ['deleted_page', intro]], 'a page deleted with its parent is deleted');

    // revert_page to the change request's base: the page did not exist there, so it goes.
    // Then revert_page to a given revision brings both back, as they were.
    const third = await applyChanges(ALICE_TOKEN, space, cr, [
        { operation: 'revert_page', page: intro, revision: rev1 },
        { operation: 'revert_page', page: next, revision: rev1 },
    ]);
    assert.equal(third.status, 200, JSON.stringify(third.data));
    assert.deepEqual(third.data.changes.map((c) => [c.object, c.page.id]), [['created_page', intro], ['created_page', next]]);
    const restored = await alice.spaces.listPagesInChangeRequest(space, cr);
    assert.deepEqual(outline(restored.data.pages), [
        { id: intro, title: 'Introduction', path: 'introduction', pages: [] },
        { id: next, title: 'Next steps', path: 'next-steps', pages: [] },
    ]);
    const toBase = await applyChanges(ALICE_TOKEN, space, cr, [{ operation: 'revert_page', page: next }]);
    assert.equal(toBase.status, 200, JSON.stringify(toBase.data));
    assert.deepEqual(toBase.data.changes.map((c) => c.object), ['deleted_page'], 'absent from the base: removed');
    const blocks = await applyChanges(ALICE_TOKEN, space, cr, [{ operation: 'revert_page', page: intro, block: ['b1'] }]);
    assert.equal(blocks.status, 400, 'block-level reverts are not supported');
    assert.match(blocks.data.error.message, /changes\[0\]\.block/);

    // Refused batches name the change at fault and change nothing.
    const before = (await alice.spaces.getChangeRequestById(space, cr)).data.revision;
    for (const [changes, pattern] of [
        [[{ operation: 'insert_page', document: { markdown: 'x' } },
            { operation: 'insert_files', files: [{ name: 'a.txt', contentType: 'text/plain', base64: 'YQ==', url: 'https://example.com/a.txt' }] }],
            /changes\[1\]\.files\[0\]: .*exactly one of base64 or url/],
        [[{ operation: 'insert_files', files: [{ name: 'a.txt' }] }], /changes\[0\]\.files\[0\]: .*exactly one/],
        [[{ operation: 'insert_files', files: [{ name: 'local.txt', url: `${QUIRE_URL}/healthz` }] }],
            /changes\[0\]\.files\[0\]\.url: .*(not allowed|loopback)/],
        [[{ operation: 'insert_page', ref: 'dup', document: { markdown: '' } },
            { operation: 'insert_page', ref: 'dup', document: { markdown: '' } }], /changes\[1\]\.ref/],
        [[{ operation: 'revert_page', page: intro, revision: 'noSuchRevision000000' }], /changes\[0\]\.revision/],
    ]) {
        const r = await applyChanges(ALICE_TOKEN, space, cr, changes);
        assert.equal(r.status, 400, JSON.stringify(r.data));
        assert.match(r.data.error.message, pattern);
    }
    const after = (await alice.spaces.getChangeRequestById(space, cr)).data.revision;
    assert.equal(after, before, 'refused batches make no revision');
});

step('files and links: insert_files, links between pages, backlinks, in both families', async () => {
    need(S.org);
    const sp = await alice.orgs.createSpace(S.org, { title: 'Linked' });
    assert.equal(sp.status, 201);
    const space = sp.data.id;
    const cr = await alice.spaces.createChangeRequest(space, { subject: 'Pages that link' });
    assert.equal(cr.status, 201);
    const crId = cr.data.id;
    const logo = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const applied = await applyChanges(ALICE_TOKEN, space, crId, [
        { operation: 'insert_files', files: [{ name: 'logo.gif', contentType: 'image/gif', base64: logo.toString('base64'), ref: 'logo' }] },
        { operation: 'insert_page', ref: 'home', title: 'Home', document: { markdown: 'See [setup](/pages/setup) and [the web](https://example.org).\n\n![logo](/files/logo)\n' } },
        { operation: 'insert_page', ref: 'setup', title: 'Setup', document: { markdown: 'Back [home](/pages/home), or [nowhere](/pages/missing).\n' } },
    ]);
    assert.equal(applied.status, 200, JSON.stringify(applied.data));
    checkContentUpdate(applied.data);
    assert.equal(applied.data.insertedFiles[0].name, 'logo.gif');
    const { home, setup, logo: fileId } = applied.refs;
    assert.ok(home && setup && fileId, 'refs for pages and the file');

    const files = await alice.spaces.listFilesInChangeRequestById(space, crId);
    assert.equal(files.status, 200);
    assert.equal(files.data.count, 1);
    const f = await alice.spaces.getFileInChangeRequestById(space, crId, fileId);
    assert.equal(f.data.name, 'logo.gif');
    assert.equal(f.data.contentType, 'image/gif');
    assert.equal(f.data.size, logo.length);
    const dl = await fetch(f.data.downloadURL);
    assert.equal(dl.status, 200);
    assert.deepEqual(Buffer.from(await dl.arrayBuffer()), logo, 'the download answers the bytes');

    const links = await alice.spaces.listChangeRequestLinks(space, crId);
    assert.equal(links.status, 200);
    assert.equal(links.data.stats.total, 5);
    assert.equal(links.data.stats.broken.total, 1);
    assert.equal(links.data.stats.broken.changeRequest, 1);
    const statuses = links.data.items.map((u) => u.status).sort();
    assert.deepEqual(statuses, ['broken', 'ok', 'ok', 'ok', 'ok']);
    const pageLinks = await alice.spaces.listPageLinksInChangeRequest(space, crId, setup);
    assert.equal(pageLinks.data.count, 2);
    const back = await alice.spaces.listChangeRequestPageBacklinks(space, crId, home);
    assert.deepEqual(back.data.items.map((l) => l.page.id), [setup]);
    const crContext = back.data.items[0].versionContext;
    assert.equal(crContext.type, 'changeRequest', 'a change request location is read in the change request');
    assert.equal(crContext.changeRequest.id, crId);
    assert.equal(crContext.changeRequest.object, 'change-request');
    for (const u of links.data.items) {
        if (u.targetReference.kind !== 'url') {
            assert.equal(u.targetReference.versionContext.changeRequest.id, crId, 'every location shares the context');
        } else {
            assert.equal(typeof u.targetReference.url, 'string', 'a url location (also a broken page link) carries its url');
        }
    }
    const fileBack = await alice.spaces.listChangeRequestFileBacklinks(space, crId, fileId);
    assert.deepEqual(fileBack.data.items.map((l) => l.page.id), [home]);

    const merged = await alice.spaces.mergeChangeRequest(space, crId);
    assert.equal(merged.data.result, 'merge');
    const sf = await alice.spaces.listFiles(space);
    assert.equal(sf.data.count, 1);
    assert.equal((await alice.spaces.getFileById(space, fileId)).data.id, fileId);
    const sl = await alice.spaces.listSpaceLinks(space);
    assert.equal(sl.data.stats.total, 5);
    assert.equal(sl.data.stats.broken.changeRequest, undefined);
    const spl = await alice.spaces.listPageLinksInSpace(space, home);
    assert.equal(spl.data.count, 3);
    const sb = await alice.spaces.listSpacePageBacklinks(space, setup);
    assert.deepEqual(sb.data.items.map((l) => l.page.id), [home]);
    const current = await alice.spaces.getCurrentRevision(space);
    const revContext = sb.data.items[0].versionContext;
    assert.equal(revContext.type, 'revision', 'a space location is read in its current revision');
    assert.equal(revContext.revision.id, current.data.id);
    assert.equal(revContext.revision.object, 'revision');
    const sfb = await alice.spaces.listSpaceFileBacklinks(space, fileId);
    assert.equal(sfb.data.count, 1);
    await rejectsWith(404, alice.spaces.getFileById(space, 'noSuchFile0000000000'), 'GET unknown file');
});

step('applyTemplateToSpace and getChangeRequestPDF', async () => {
    need(S.org);
    const sp = await alice.orgs.createSpace(S.org, { title: 'Templated' });
    const space = sp.data.id;
    const applied = await alice.spaces.applyTemplateToSpace(space, { id: 'product-guide' });
    assert.equal(applied.status, 204);
    const pages = await alice.spaces.listPages(space);
    assert.ok(pages.data.pages.length >= 1, 'the template wrote pages');
    assert.ok(pages.data.pages[0].pages.length >= 3, 'a guide of several pages');
    await rejectsWith(400, alice.spaces.applyTemplateToSpace(space, { id: 'no-such-template' }), 'an unknown template');

    const cr = await alice.spaces.createChangeRequest(space, { subject: 'Print me' });
    const applyRes = await applyChanges(ALICE_TOKEN, space, cr.data.id, [
        { operation: 'insert_page', title: 'Printable Page', document: { markdown: '## Printable\n\nSome **text**.\n' } },
    ]);
    assert.equal(applyRes.status, 200);
    const pdf = await alice.spaces.getChangeRequestPdf(space, cr.data.id);
    assert.equal(pdf.status, 200);
    assert.match(pdf.data.url, /^http/);
    const res = await fetch(pdf.data.url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.ok(bytes.includes('Printable Page'), 'the PDF holds the page title');
});

/** One comment thread's life in a family: post, reply, react, resolve, reopen, delete. */
async function commentThread(space, crId, pageId) {
    const fam = crId ? 'ChangeRequest' : 'Space';
    const args = (...rest) => (crId ? [space, crId, ...rest] : [space, ...rest]);
    const api = alice.spaces;
    const counter = async () => (crId
        ? (await api.getChangeRequestById(space, crId)).data.comments
        : (await api.getSpaceById(space)).data.comments);

    const posted = await api[`postCommentIn${fam}`](...args({ page: pageId, body: { markdown: 'Is this **right**?' } }));
    assert.equal(posted.status, 200);
    const c = posted.data;
    assert.equal(c.object, 'comment');
    assert.equal(c.status, 'open');
    assert.equal(c.body.markdown, 'Is this **right**?');
    assert.equal(c.target.page.id, pageId);
    assert.equal(c.target.space, space);
    if (crId) assert.equal(c.target.changeRequest, crId);
    assert.equal(await counter(), 1, 'one open comment');

    const asDoc = await api[`getCommentIn${fam}`](...args(c.id, { format: 'document' }));
    assert.equal(asDoc.data.body.document.object, 'document');

    const reply = await api[`postCommentReplyIn${fam}`](...args(c.id, { body: { markdown: 'Yes.' } }));
    assert.equal(reply.status, 200);
    assert.equal(reply.data.object, 'comment-reply');
    const replies = await api[`listCommentRepliesIn${fam}`](...args(c.id));
    assert.deepEqual(replies.data.items.map((r) => r.id), [reply.data.id]);
    const gotReply = await api[`getCommentReplyIn${fam}`](...args(c.id, reply.data.id));
    assert.equal(gotReply.data.body.markdown, 'Yes.');
    const editedReply = await api[`updateCommentReplyIn${fam}`](...args(c.id, reply.data.id, { body: { markdown: 'Yes!' }, addedReactions: ['🎉'] }));
    assert.equal(editedReply.data.body.markdown, 'Yes!');
    assert.ok(editedReply.data.editedAt, 'editedAt is set');
    assert.equal(editedReply.data.reactions[0].emoji, '🎉');

    const resolved = await api[`updateCommentIn${fam}`](...args(c.id, { resolved: true, addedReactions: ['👍'] }));
    assert.equal(resolved.data.status, 'resolved');
    assert.equal(resolved.data.resolvedBy.id, S.aliceId);
    assert.equal(resolved.data.reactions[0].count, 1);
    assert.equal(resolved.data.replies, 1);
    assert.equal(resolved.data.repliers[0].count, 1);
    assert.equal(await counter(), 0, 'resolved comments are not counted');
    const open = await api[`listCommentsIn${fam}`](...args({ status: 'open' }));
    assert.equal(open.data.count, 0);
    const all = await api[`listCommentsIn${fam}`](...args());
    assert.equal(all.data.count, 1);
    await api[`updateCommentIn${fam}`](...args(c.id, { resolved: false }));
    assert.equal(await counter(), 1, 'reopened');

    const commenters = await api[`listCommentersIn${fam}`](...args());
    assert.deepEqual(commenters.data.items.map((m) => m.id), [S.aliceId]);
    await rejectsWith(400, api[`updateCommentIn${fam}`](...args(c.id, { addedReactions: ['not-an-emoji'] })), 'a non-emoji reaction');

    const delReply = await api[`deleteCommentReplyIn${fam}`](...args(c.id, reply.data.id));
    assert.equal(delReply.status, 204);
    const del = await api[`deleteCommentIn${fam}`](...args(c.id));
    assert.equal(del.status, 204);
    assert.equal(await counter(), 0);
    await rejectsWith(404, api[`getCommentIn${fam}`](...args(c.id)), 'a deleted comment');
}

step('comments: a thread on the space and one on a change request', async () => {
    need(S.org, S.aliceId);
    const sp = await alice.orgs.createSpace(S.org, { title: 'Discussed' });
    const space = sp.data.id;
    const cr = await alice.spaces.createChangeRequest(space, { subject: 'A page to discuss' });
    const applied = await applyChanges(ALICE_TOKEN, space, cr.data.id, [
        { operation: 'insert_page', ref: 'p', title: 'Discussed page', document: { markdown: '## Topic\n\nA claim.\n' } },
    ]);
    assert.equal(applied.status, 200);
    await commentThread(space, cr.data.id, applied.refs.p);
    await alice.spaces.mergeChangeRequest(space, cr.data.id);
    await commentThread(space, null, applied.refs.p);
});

step('sites: structure, defaults, adaptive content, publishing', async () => {
    need(S.org);
    const api = alice.orgs;
    const mk = async (title) => (await api.createSpace(S.org, { title })).data.id;
    const [guide, beta, reference, staff] = [await mk('Site Guide'), await mk('Site Beta'), await mk('Site Reference'), await mk('Site Staff')];

    const created = await api.createSite(S.org, { title: 'Public docs', spaces: [guide] });
    assert.equal(created.status, 201);
    const site = created.data;
    assert.equal(site.object, 'site');
    assert.equal(site.type, 'basic');
    assert.equal(site.siteSpaces, 1);
    assert.equal(site.published, false);
    assert.equal((await api.getSiteById(S.org, site.id)).data.id, site.id);
    const listed = await api.listSites(S.org, { title: 'public' });
    assert.ok(listed.data.items.some((x) => x.id === site.id));
    await rejectsWith(400, api.createSite(S.org, { title: 'x' }), 'a one-letter title');

    const roots = await api.listSiteSpaces(S.org, site.id);
    assert.equal(roots.data.count, 1);
    assert.equal(roots.data.items[0].default, true);
    const added = await api.addSpaceToSite(S.org, site.id, { spaceId: beta });
    assert.equal(added.status, 201);
    assert.equal(added.data.default, false);
    const moved = await api.moveSiteSpace(S.org, site.id, added.data.id, { position: { before: { type: 'site-space', siteSpace: roots.data.items[0].id } } });
    assert.equal(moved.status, 200);
    const patched = await api.updateSiteSpaceById(S.org, site.id, added.data.id, { path: 'beta', condition: 'visitor.claims.unsigned.beta === true' });
    assert.equal(patched.data.path, 'beta');
    assert.equal(patched.data.condition, 'visitor.claims.unsigned.beta === true');
    await rejectsWith(400, api.updateSiteSpaceById(S.org, site.id, added.data.id, { condition: 'visitor.claims.x == 1' }), 'a == condition');

    // Sections: the root site spaces move into a first section; the new section comes after.
    const refSec = await api.addSectionToSite(S.org, site.id, { spaceId: reference, title: 'Reference' });
    assert.equal(refSec.status, 201);
    const staffSec = await api.addSectionToSite(S.org, site.id, { spaceId: staff, title: 'Staff' });
    const sections = await api.listSiteSections(S.org, site.id);
    assert.equal(sections.data.count, 3);
    assert.equal(sections.data.items.filter((x) => x.default).length, 1, 'one default section');
    await api.updateSiteSectionById(S.org, site.id, staffSec.data.id, { condition: 'visitor.claims.employee === true', description: 'For us' });
    const movedSec = await api.moveSiteSection(S.org, site.id, staffSec.data.id, { position: { before: { type: 'site-section', siteSection: refSec.data.id } } });
    assert.equal(movedSec.status, 200);

    const group = await api.addSectionGroupToSite(S.org, site.id, { title: 'More', sections: [refSec.data.id] });
    assert.equal(group.status, 201);
    assert.equal(group.data.children.length, 1);
    const renamed = await api.updateSiteSectionGroupById(S.org, site.id, group.data.id, { title: 'Further reading' });
    assert.equal(renamed.data.title, 'Further reading');
    const withStaff = await api.addSectionToGroup(S.org, site.id, group.data.id, { sectionId: staffSec.data.id });
    assert.equal(withStaff.data.children.length, 2);
    assert.equal((await api.removeSectionFromGroup(S.org, site.id, group.data.id, staffSec.data.id)).status, 204);
    assert.equal((await api.listSiteSectionGroups(S.org, site.id)).data.count, 1);

    const schema = await api.updateSiteAdaptiveSchema(S.org, site.id, { jsonSchema: {
        type: 'object', additionalProperties: false,
        properties: {
            employee: { type: 'boolean', description: 'Staff' },
            plan: { type: 'string', description: 'Plan', enum: ['free', 'pro'] },
            seats: { type: 'number', description: 'Seats' },
            roles: { type: 'array', description: 'Roles', items: { type: 'string', description: 'A role', enum: ['admin'] } },
            company: { type: 'object', description: 'Company', additionalProperties: false,
                properties: { name: { type: 'string', description: 'Name' } } },
            unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', additionalProperties: false,
                properties: { beta: { type: 'boolean', description: 'Beta tester' } } },
        },
    } });
    assert.equal(schema.status, 200);
    assert.equal((await api.getSiteAdaptiveSchema(S.org, site.id)).data.object, 'site-adaptive-schema');
    const conds = await api.listSiteAdaptiveTemplateConditions(S.org, site.id);
    assert.deepEqual(conds.data.items.map((c) => c.condition).sort(), [
        'visitor.claims.company.name !== undefined', 'visitor.claims.employee === true',
        'visitor.claims.plan === "free"', 'visitor.claims.plan === "pro"', 'visitor.claims.roles.includes("admin")',
        'visitor.claims.seats > 0', 'visitor.claims.unsigned.beta === true']);
    await rejectsWith(400, api.updateSiteAdaptiveSchema(S.org, site.id, { jsonSchema: {
        type: 'object', additionalProperties: false, properties: { plan: { type: 'string' } } } }), 'a claim without a description');
    await rejectsWith(400, api.updateSiteAdaptiveSchema(S.org, site.id, { jsonSchema: { type: 'array' } }), 'a schema that is not an object');

    const updated = await api.updateSiteById(S.org, site.id, { adaptiveContent: { enabled: true }, basename: 'docs', agentsContext: 'excluded' });
    assert.equal(updated.data.adaptiveContent.enabled, true);
    assert.equal(updated.data.basename, 'docs');
    await rejectsWith(404, api.getPublishedContentSite(S.org, site.id), 'an unpublished site');
    const published = await api.publishSite(S.org, site.id);
    assert.equal(published.data.published, true);
    assert.match(published.data.urls.published, /^http/);
    const view = await api.getPublishedContentSite(S.org, site.id);
    assert.equal(view.data.object, 'published-content-site');
    const look = view.data.customizations.site;
    assert.equal(look.styling.theme, 'clean', 'customizations come with their documented defaults');
    assert.equal(look.internationalization.locale, 'en');
    assert.deepEqual(look.favicon, {});
    assert.equal(look.themes.default, 'light');
    for (const c of Object.values(view.data.customizations.siteSpaces)) {
        assert.equal(c.styling.primaryColor.light, look.styling.primaryColor.light);
    }
    assert.equal(view.data.site.permissions.admin, true);
    assert.equal(view.data.structure.type, 'sections');
    const titles = JSON.stringify(view.data.structure.structure);
    assert.ok(!titles.includes('Site Staff'), 'a visitor without claims does not see the staff section');
    assert.ok(!titles.includes('Site Beta'), 'nor the beta site space');
    assert.ok(titles.includes('Site Reference'), 'but sees the reference');
    assert.equal((await api.unpublishSite(S.org, site.id)).data.published, false);

    assert.equal((await api.deleteSiteSectionGroupById(S.org, site.id, group.data.id)).status, 204);
    assert.equal((await api.deleteSiteSectionById(S.org, site.id, staffSec.data.id)).status, 204);
    assert.equal((await api.deleteSiteSpaceById(S.org, site.id, added.data.id)).status, 204);
    assert.equal((await api.deleteSiteById(S.org, site.id)).status, 204);
    await rejectsWith(404, api.getSiteById(S.org, site.id), 'a deleted site');
});

step('the current client (0.202.0) drives the gap-fills and reads what the seed\'s client wrote', async () => {
    need(S.org, S.handbook, S.guide);
    const api = kit.client(ALICE_TOKEN, { latest: true });
    const info = await api.getApiInformation();
    assert.equal(info.status, 200);
    assert.equal((await api.user.getAuthenticatedUser()).data.id, S.aliceId ?? (await alice.user.getAuthenticatedUser()).data.id);

    const org = await api.orgs.createOrganization({ title: 'Latest Client Inc' });
    assert.equal(org.status, 201);
    assert.equal(org.data.permissions.admin, true);
    assert.equal(typeof org.data.permissions.access, 'boolean', 'permissions.access, which 0.202.0 requires');
    const sp = await api.orgs.createSpace(org.data.id, { title: 'Latest' });
    assert.equal(sp.status, 201);
    assert.equal(sp.data.organization, org.data.id);

    // Pages the 0.146.0 client wrote, read as documents and as markdown.
    const doc = await api.spaces.getPageByPath(S.handbook, 'guide', { format: 'document' });
    assert.equal(doc.data.id, S.guide);
    assert.equal(doc.data.document.object, 'document');
    assert.ok(Array.isArray(doc.data.tags) && doc.data.layout.coverMask, 'tags and the full layout');
    const md = await api.spaces.getPageByPath(S.handbook, 'guide', { format: 'markdown' });
    assert.equal(typeof md.data.markdown, 'string');
    assert.equal((await api.spaces.getPageById(S.handbook, S.guide)).data.id, S.guide);
    const pages = await api.spaces.listPages(S.handbook);
    assert.ok(JSON.stringify(pages.data).includes(S.guide));

    // A site of the new organization, published and read, then unpublished.
    const site = await api.orgs.createSite(org.data.id, { title: 'Latest docs' });
    assert.equal(site.status, 201);
    const published = await api.orgs.publishSite(org.data.id, site.data.id);
    assert.equal(published.data.published, true);
    const view = await api.orgs.getPublishedContentSite(org.data.id, site.data.id);
    assert.equal(view.data.object, 'published-content-site');
    assert.ok(view.data.customizations?.site?.styling, 'customizations carry styling');
    assert.equal((await api.orgs.unpublishSite(org.data.id, site.data.id)).data.published, false);
});

step('unknown collection and team ids answer 404', async () => {
    need(S.org);
    await rejectsWith(404, alice.collections.getCollectionById('noSuchCollection0000'), 'GET unknown collection');
    await rejectsWith(404, alice.collections.listSpacesInCollectionById('noSuchCollection0000'),
        'list spaces of an unknown collection');
    await rejectsWith(404, alice.orgs.getTeamInOrganizationById(S.org, 'noSuchTeam0000000000'), 'GET unknown team');
    await rejectsWith(404, alice.orgs.getOrganizationById('noSuchOrg00000000000'), 'GET unknown organization');
});

// ---------------------------------------------------------------------------------------------

kit.finish();
