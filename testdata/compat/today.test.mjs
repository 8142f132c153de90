// Every operation quire serves, again through GitBook's current client (@gitbook/api@0.202.0,
// installed as gitbook-api-latest), with request bodies that use what 0.202.0 added: site
// sections' draft, group and localized title, site spaces' draft and hidden, a site's and a
// space's defaultLevel, a space's icon and merge rules of the new kinds, templates for new spaces
// and change requests, change request links, an integration's content security policy. Each step
// checks status, shape and state. The operation list is openapi.yaml's: the file fails when one
// quire serves and 0.202.0 defines is not called here through the 0.202.0 client. Operations
// 0.202.0 lacks (conversations, links and backlinks, transferSpace, addSectionToGroup,
// removeSectionFromGroup) are left to the 0.146.0 client in the other files.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
    suiteKit, specOperations, need, rejectsWith, rejectsWithAnyOf, has, checkList, TIMESTAMP, CLIENT_202,
    ALICE_TOKEN, BOB_TOKEN, BOB_ID, QUIRE_URL, API,
} from './kit.mjs';

const served = specOperations('quire');
const defined = specOperations(CLIENT_202);
const OPERATIONS = [...served].filter((op) => defined.has(op)).sort();

const kit = suiteKit({ operations: OPERATIONS, viaLatest: OPERATIONS });
const { step, client } = kit;
const alice = client(ALICE_TOKEN, { latest: true });
const bob = client(BOB_TOKEN, { latest: true });
const anonymous = client(undefined, { latest: true });

// Global names (integrations, email domains) carry this run's own suffix.
const RUN = Date.now().toString(36);
const S = {};
const ids = (items) => items.map((i) => i.id);
// A rich-text document holding every block, inline and mark kind 0.202.0 defines (tabs,
// expandables, steppers, annotations, mentions, buttons, math, cards…), the one the Go tests use:
// every operation taking a document sends it once.
const EVERY_KIND = JSON.parse(readFileSync(new URL('../../internal/markdown/testdata/every-kind.json', import.meta.url), 'utf8'));
// An answer echoing a document is checked against 0.146.0 too, which lacks a few kinds where
// 0.202.0 has them (prompts, conditions, columns and updates at the top level, an embed in a hint):
// the operations answering the document as sent take this one, holding every kind both define;
// comments and pages (answered as markdown) take EVERY_KIND (a page without its block condition).
const BOTH_KINDS = structuredClone(EVERY_KIND);
BOTH_KINDS.nodes = BOTH_KINDS.nodes.filter((n) => !['prompt', 'if', 'columns', 'updates'].includes(n.type));
for (const n of BOTH_KINDS.nodes) {
    if (n.type === 'hint') n.nodes = n.nodes.filter((c) => c.type !== 'embed');
    if (n.type === 'expandable') delete n.data.defaultExpanded;
    // 0.146.0's buttons open a ref: no action.
    if (n.type === 'paragraph') n.nodes = n.nodes.filter((c) => !(c.type === 'button' && c.data.action));
}
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** Polls fn until it answers a truthy value. */
async function eventually(fn, what, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const v = await fn();
        if (v) return v;
        assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
        await sleep(100);
    }
}

const IDP_CERT = `-----BEGIN CERTIFICATE-----
MIIBnDCCAUOgAwIBAgIUbSuWyE/wVph2+bwVObRD/TCwMlcwCgYIKoZIzj0EAwIw
IzEhMB8GA1UEAwwYY29tcGF0IGlkZW50aXR5IHByb3ZpZGVyMCAXDTI2MTEyNjA0
MzYzNVoYDzIxMjYxMTAyMDQzNjM1WjAjMSEwHwYDVQQDDBhjb21wYXQgaWRlbnRp
dHkgcHJvdmlkZXIwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARhVRaZOB1lg8Pr
pXqHcAg84lzQ5XBFjtCWZqjUoZofh6ujEvR7hp3MBWgHrVD4NMSl8xhQ5qv06D2g
w+i+qL/po1MwUTAdBgNVHQ4EFgQUwlKZwMUtsycKG0dO0EqUATotNu8wHwYDVR0j
BBgwFoAUwlKZwMUtsycKG0dO0EqUATotNu8wDwYDVR0TAQH/BAUwAwEB/zAKBggq
hkjOPQQDAgNHADBEAiBPdT5lIZBknWKVKAClE5Y25USGE3Onn80EjPE1yZ/TTAIg
YB46EZ7vWPVCHIcwKpAeuifvqEIPdnyQZI2/mCaE8UM=
-----END CERTIFICATE-----
`;
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000000000500010d0a2db40000000049454e44ae426082', 'hex').toString('base64');
const PETSTORE = 'openapi: 3.0.3\ninfo:\n  title: Today Petstore\n  version: "1.0"\npaths:\n  /pets:\n    get:\n' +
    '      responses:\n        "200":\n          description: The pets.\n';

// ---------------------------------------------------------------------------------------------
// The user, organizations, members and teams

step('getApiInformation and getAuthenticatedUser', async () => {
    const info = await alice.getApiInformation();
    assert.equal(info.status, 200);
    has(info.data, 'version', 'string', 'api');
    const me = await alice.user.getAuthenticatedUser();
    assert.equal(me.data.object, 'user');
    S.aliceId = me.data.id;
    await rejectsWith(401, anonymous.user.getAuthenticatedUser(), 'no token');
});

step('createOrganization, getOrganizationById, updateOrganizationById with merge rules', async () => {
    const r = await alice.orgs.createOrganization({ title: 'Today Inc' });
    assert.equal(r.status, 201);
    S.org = r.data.id;
    assert.equal(r.data.permissions.admin, true);
    const domain = `today-${RUN}.example`;
    const upd = await alice.orgs.updateOrganizationById(S.org, {
        title: 'Today Documentation', emailDomains: ['example.com'], defaultRole: 'comment',
        mergeRules: { type: 'rules', rules: [{ rule: 'require_change_request_subject' }] },
    });
    assert.equal(upd.status, 200);
    assert.equal(upd.data.title, 'Today Documentation');
    assert.deepEqual(upd.data.mergeRules, { type: 'rules', rules: [{ rule: 'require_change_request_subject' }] });
    const again = await alice.orgs.getOrganizationById(S.org);
    assert.equal(again.data.defaultRole, 'comment');
    assert.deepEqual(again.data.emailDomains, ['example.com']);
    assert.equal(again.data.mergeRules.type, 'rules');
    await rejectsWith(400, alice.orgs.updateOrganizationById(S.org, { mergeRules: { type: 'inherit' } }), 'an organization inheriting');
    await rejectsWith(400, alice.orgs.updateOrganizationById(S.org, { emailDomains: [`Not ${domain}`] }), 'a bad domain');
    const list = await alice.orgs.listOrganizationsForAuthenticatedUser();
    assert.ok(ids(list.data.items).includes(S.org));
});

step('getOrganizationsForEmailDomain, joinOrganization, members', async () => {
    need(S.org);
    const found = await bob.emailDomains.getOrganizationsForEmailDomain('example.com');
    assert.ok(ids(found.data.organizations).includes(S.org));
    assert.equal((await bob.orgs.joinOrganization(S.org)).status, 204);
    const members = await alice.orgs.listMembersInOrganizationById(S.org);
    checkList(members.data, (m, w) => assert.equal(m.object, 'member', w), 'members');
    assert.ok(members.data.items.some((m) => m.user.id === BOB_ID));
    const bobMember = await alice.orgs.getMemberInOrganizationById(S.org, BOB_ID);
    assert.equal(bobMember.data.role, 'comment', 'joined with the default role');
    const edit = await alice.orgs.updateMemberInOrganizationById(S.org, BOB_ID, { role: 'edit' });
    assert.equal(edit.status, 200);
    assert.equal((await alice.orgs.getMemberInOrganizationById(S.org, BOB_ID)).data.role, 'edit');
    const ping = await bob.orgs.updateOrganizationMemberLastSeenAt(S.org);
    assert.equal(ping.status, 200);
    assert.match((await alice.orgs.getMemberInOrganizationById(S.org, BOB_ID)).data.lastSeenAt, TIMESTAMP);
    await rejectsWith(403, bob.orgs.updateMemberInOrganizationById(S.org, S.aliceId, { role: 'read' }), 'an editor changes a role');
});

step('agent instructions, invites, SSO membership', async () => {
    need(S.org);
    const put = await alice.orgs.updateOrganizationAgentInstructions(S.org, { instructions: BOTH_KINDS });
    assert.equal(put.status, 200);
    assert.deepEqual(put.data.instructions, BOTH_KINDS, 'the instructions are answered as sent');
    const doc = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {},
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Answer briefly.', marks: [] }] }] }] };
    assert.equal((await alice.orgs.updateOrganizationAgentInstructions(S.org, { instructions: doc })).status, 200);
    const got = await alice.orgs.getOrganizationAgentInstructions(S.org);
    assert.ok(JSON.stringify(got.data).includes('Answer briefly.'));
    assert.equal((await alice.orgs.deleteOrganizationInviteById(S.org, 'noSuchInvite00000000')).status, 204);
    await rejectsWith(403, bob.orgs.deleteOrganizationInviteById(S.org, 'noSuchInvite00000000'), 'an editor deletes an invite');
    const sso = await alice.orgs.setUserAsSsoMemberForOrganization(S.org, BOB_ID);
    assert.equal(sso.status, 200);
    assert.equal((await alice.orgs.getMemberInOrganizationById(S.org, BOB_ID)).data.sso, true);
});

step('teams: create with members, read, list, rename, delete', async () => {
    need(S.org);
    const t = await alice.orgs.createOrganizationTeam(S.org, { title: 'Writers', members: [BOB_ID] });
    assert.equal(t.status, 201);
    S.team = t.data.id;
    assert.equal(t.data.title, 'Writers');
    assert.equal((await alice.orgs.getTeamInOrganizationById(S.org, S.team)).data.members, 1);
    const ren = await alice.orgs.updateTeamInOrganizationById(S.org, S.team, { title: 'Editors' });
    assert.equal(ren.status, 200);
    assert.equal((await alice.orgs.getTeamInOrganizationById(S.org, S.team)).data.title, 'Editors');
    const all = await alice.orgs.listTeamsInOrganizationById(S.org);
    assert.deepEqual(ids(all.data.items), [S.team]);
    const bobs = await alice.orgs.listTeamsForOrganizationMember(S.org, BOB_ID);
    assert.deepEqual(bobs.data.items.map((m) => m.team.id), [S.team]);
    const gone = await alice.orgs.removeTeamFromOrganizationById(S.org, S.team);
    assert.equal(gone.status, 204);
    await rejectsWith(404, alice.orgs.getTeamInOrganizationById(S.org, S.team), 'a removed team');
});

step('team membership: add, list, update at once, remove', async () => {
    need(S.org, S.aliceId);
    const t = await alice.orgs.createOrganizationTeam(S.org, { title: 'Reviewers' });
    const team = t.data.id;
    assert.equal((await alice.orgs.addMemberToOrganizationTeamById(S.org, team, BOB_ID, { role: 'owner' })).status, 204);
    const roles = async () => {
        const list = await alice.orgs.listTeamMembersInOrganizationById(S.org, team);
        checkList(list.data, (m, w) => assert.equal(m.organization.object, 'member', w), 'team members');
        return Object.fromEntries(list.data.items.map((m) => [m.organization.id, m.team.role]));
    };
    assert.deepEqual(await roles(), { [BOB_ID]: 'owner' });
    // Bob owns the team: he manages it.
    const upd = await bob.orgs.updateMembersInOrganizationTeam(S.org, team, { add: [S.aliceId], memberships: { [S.aliceId]: { role: 'owner' } } });
    assert.equal(upd.status, 204);
    assert.deepEqual(await roles(), { [BOB_ID]: 'owner', [S.aliceId]: 'owner' });
    await rejectsWith(400, alice.orgs.addMemberToOrganizationTeamById(S.org, team, 'noSuchUser0000000000', {}), 'a stranger in a team');
    assert.equal((await alice.orgs.deleteMemberFromOrganizationTeamById(S.org, team, BOB_ID)).status, 205);
    assert.equal((await alice.orgs.deleteMemberFromOrganizationTeamById(S.org, team, BOB_ID)).status, 204);
    assert.deepEqual(await roles(), { [S.aliceId]: 'owner' });
    assert.equal((await alice.orgs.removeTeamFromOrganizationById(S.org, team)).status, 204);
});

step('invitations: links and by email, joining with them; updateUserById', async () => {
    need(S.org);
    const link = await alice.orgs.createOrganizationInvite(S.org, { role: 'read' });
    assert.equal(link.status, 201);
    assert.equal(link.data.object, 'invite');
    assert.deepEqual(ids((await alice.orgs.listOrganizationInviteLinks(S.org)).data.items), [link.data.id]);
    const seen = await bob.orgs.getOrganizationInviteLink(S.org, link.data.id);
    assert.equal(seen.data.redundant, true, 'an editor already has more than read');
    const upd = await alice.orgs.updateOrganizationInviteById(S.org, link.data.id, { role: 'admin' });
    assert.equal(upd.data.role, 'admin');
    assert.equal((await bob.orgs.getOrganizationInviteLink(S.org, link.data.id)).data.redundant, false);
    await rejectsWith(403, bob.orgs.updateOrganizationInviteById(S.org, link.data.id, { role: 'read' }), 'an editor changes a link');
    // A member joining again keeps their role.
    assert.equal((await bob.orgs.joinOrganizationWithInvite(S.org, link.data.id)).status, 200);
    assert.equal((await alice.orgs.getMemberInOrganizationById(S.org, BOB_ID)).data.role, 'edit');
    assert.equal((await alice.orgs.deleteOrganizationInviteById(S.org, link.data.id)).status, 205);
    assert.equal((await alice.orgs.deleteOrganizationInviteById(S.org, link.data.id)).status, 204);
    // A link to a space: a level there, not a role in the organization.
    const shared = await alice.orgs.createSpace(S.org, { title: 'Invited to', empty: true });
    const toSpace = await alice.orgs.createOrganizationInvite(S.org, { level: 'comment', space: shared.data.id });
    assert.equal(toSpace.data.level, 'comment');
    assert.equal(toSpace.data.space.id, shared.data.id);
    const lifted = await alice.orgs.updateOrganizationInviteById(S.org, toSpace.data.id, { level: 'edit' });
    assert.equal(lifted.data.level, 'edit');
    await rejectsWith(400, alice.orgs.createOrganizationInvite(S.org, { level: 'read', space: shared.data.id, role: 'read' }), 'a link to both');
    assert.equal((await alice.orgs.deleteOrganizationInviteById(S.org, toSpace.data.id)).status, 205);

    const email = `someone-${RUN}@example.org`;
    const inv = await alice.orgs.inviteUsersToOrganization(S.org, { emails: [email, { email: `other-${RUN}@example.org`, role: null }], role: 'read' });
    assert.equal(inv.status, 200);
    assert.deepEqual(inv.data.users, []);
    assert.equal(inv.data.invited, 2);
    const [first] = inv.data.invitations;
    assert.equal(first.email, email);
    assert.equal(first.sent, false, 'quire serves without an SMTP server here');
    assert.ok(first.url.endsWith(`/v1/orgs/${S.org}/invites/${first.id}`));
    await rejectsWith(403, bob.orgs.joinOrganizationWithInvite(S.org, first.id), 'an invitation for another address');

    const me = (await bob.user.getAuthenticatedUser()).data;
    const renamed = await bob.users.updateUserById(BOB_ID, { displayName: 'Bob Builder' });
    assert.equal(renamed.data.displayName, 'Bob Builder');
    assert.equal((await alice.users.getUserById(BOB_ID)).data.displayName, 'Bob Builder');
    await rejectsWith(403, alice.users.updateUserById(BOB_ID, { displayName: 'Not Bob' }), "another user's profile");
    assert.equal((await bob.users.updateUserById(BOB_ID, { displayName: me.displayName })).status, 200);
});

step('audit log: the writes above, newest first, filtered and paged; admins only', async () => {
    need(S.org);
    const first = await alice.orgs.listOrganizationAuditEvents(S.org, { limit: 2 });
    assert.equal(first.status, 200);
    assert.equal(first.data.items.length, 2);
    assert.ok(first.data.next, 'the steps above made more than two writes');
    assert.ok(first.data.items[0].occurredAt >= first.data.items[1].occurredAt, 'newest first');
    const older = await alice.orgs.listOrganizationAuditEvents(S.org, { limit: 2, page: first.data.next.page });
    assert.ok(!ids(older.data.items).includes(first.data.items[0].id), 'the next page goes on after the first');
    const links = await alice.orgs.listOrganizationAuditEvents(S.org, { action: 'organization.link-invite.created' });
    assert.ok(links.data.items.length >= 2, 'two invite links were made above');
    for (const e of links.data.items) assert.equal(e.action, 'organization.link-invite.created');
    const one = await alice.orgs.getOrganizationAuditEvent(S.org, links.data.items[0].id);
    assert.equal(one.data.payload.operation, 'createOrganizationInvite');
    assert.equal(one.data.actor.type, 'user');
    const actions = await alice.orgs.listOrganizationAuditEventActions(S.org);
    assert.ok(actions.data.items.some((a) => a.id === 'organization.link-invite.created'));
    await rejectsWith(403, bob.orgs.listOrganizationAuditEvents(S.org), 'an editor reads the audit log');
});

// ---------------------------------------------------------------------------------------------
// Collections and spaces

step('collections: create, nest, update with defaultLevel, move, list', async () => {
    need(S.org);
    const a = await alice.orgs.createCollection(S.org, { title: 'Guides' });
    assert.equal(a.status, 201);
    const b = await alice.orgs.createCollection(S.org, { title: 'Advanced', parent: a.data.id });
    assert.equal(b.data.parent, a.data.id);
    S.collection = a.data.id;
    S.inner = b.data.id;
    const upd = await alice.collections.updateCollectionById(S.inner, { description: 'Deep', defaultLevel: 'inherit' });
    assert.equal(upd.data.description, 'Deep');
    assert.equal(upd.data.defaultLevel, 'inherit');
    assert.equal((await alice.collections.getCollectionById(S.inner)).data.description, 'Deep');
    const moved = await alice.collections.moveCollection(S.inner, { parent: null });
    assert.equal(moved.status, 200);
    assert.equal((await alice.collections.getCollectionById(S.inner)).data.parent, undefined);
    const list = await alice.orgs.listCollectionsInOrganizationById(S.org);
    assert.deepEqual(ids(list.data.items).sort(), [S.collection, S.inner].sort());
});

step('createSpace from a template and empty, updateSpaceById with icon and merge rules', async () => {
    need(S.org, S.collection, S.aliceId);
    const t = await alice.orgs.createSpace(S.org, { title: 'From a template', parent: S.collection, template: { id: 'product-guide' } });
    assert.equal(t.status, 201);
    S.space = t.data.id;
    assert.equal(t.data.parent, S.collection);
    const pages = await alice.spaces.listPages(S.space);
    assert.ok(pages.data.pages.length > 0, 'the template wrote pages');
    S.templatePage = pages.data.pages[0].id;
    S.templatePath = pages.data.pages[0].path;
    const e = await alice.orgs.createSpace(S.org, { title: 'Empty', empty: true });
    assert.equal(e.status, 201);
    S.empty = e.data.id;
    assert.deepEqual((await alice.spaces.listPages(S.empty)).data.pages, []);
    await rejectsWith(400, alice.orgs.createSpace(S.org, { title: 'Both', empty: true, template: { id: 'product-guide' } }), 'empty and a template');
    await rejectsWith(400, alice.orgs.createSpace(S.org, { title: 'Unknown', template: { id: 'no-such-template' } }), 'an unknown template');

    const icon = 'https://example.com/icon.png';
    const rules = { type: 'rules', rules: [
        { rule: 'require_author_to_merge' },
        { rule: 'require_change_request_description' },
        { rule: 'allow_bypass', users: [S.aliceId] },
    ] };
    const upd = await alice.spaces.updateSpaceById(S.empty, { title: 'Ruled', icon, mergeRules: rules, defaultLevel: 'inherit' });
    assert.equal(upd.status, 200);
    assert.equal(upd.data.urls.icon, icon, 'the icon is answered as urls.icon');
    assert.deepEqual(upd.data.mergeRules, rules);
    const got = await alice.spaces.getSpaceById(S.empty);
    assert.equal(got.data.title, 'Ruled');
    assert.equal(got.data.urls.icon, icon);
    assert.deepEqual(got.data.mergeRules, rules);
    const cleared = await alice.spaces.updateSpaceById(S.empty, { icon: null, emoji: null });
    assert.equal(cleared.data.urls.icon, undefined);
    await rejectsWith(400, alice.spaces.updateSpaceById(S.empty, { mergeRules: { type: 'rules', rules: [{ rule: 'custom' }] } }), 'a custom rule without expression');

    const inOrg = await alice.orgs.listSpacesInOrganizationById(S.org);
    assert.ok(ids(inOrg.data.items).includes(S.space) && ids(inOrg.data.items).includes(S.empty));
    const inCollection = await alice.collections.listSpacesInCollectionById(S.collection);
    assert.deepEqual(ids(inCollection.data.items), [S.space]);
    const bobs = await alice.orgs.listSpacesForOrganizationMember(S.org, BOB_ID);
    assert.equal(bobs.status, 200);
});

step('merge rules of the new kinds are enforced at merge', async () => {
    need(S.empty);
    // Bob (an editor) authors; the rules require the author to merge and a description.
    const cr = await bob.spaces.createChangeRequest(S.empty, { subject: 'Ruled change' });
    assert.equal(cr.status, 201);
    await rejectsWith(409, bob.spaces.mergeChangeRequest(S.empty, cr.data.id), 'no description');
    // Alice is named by allow_bypass: she merges whatever the rules say.
    const merged = await alice.spaces.mergeChangeRequest(S.empty, cr.data.id);
    assert.equal(merged.status, 200);
    assert.equal(merged.data.result, 'merge');
});

step('duplicateSpace, moveSpace, deleteSpaceById, restoreSpace', async () => {
    need(S.space, S.collection);
    const dup = await alice.spaces.duplicateSpace(S.space);
    assert.ok([200, 201].includes(dup.status));
    assert.notEqual(dup.data.id, S.space);
    S.dup = dup.data.id;
    assert.equal((await alice.spaces.listPages(S.dup)).data.pages.length, (await alice.spaces.listPages(S.space)).data.pages.length);
    const mv = await alice.spaces.moveSpace(S.dup, { parent: null });
    assert.equal(mv.status, 200);
    assert.equal((await alice.spaces.getSpaceById(S.dup)).data.parent, undefined);
    assert.equal((await alice.spaces.deleteSpaceById(S.dup)).status, 204);
    assert.match((await alice.spaces.getSpaceById(S.dup)).data.deletedAt, TIMESTAMP, 'a deleted space is answered with deletedAt');
    const back = await alice.spaces.restoreSpace(S.dup);
    assert.equal(back.status, 200);
    assert.equal(back.data.id, S.dup);
    assert.equal((await alice.spaces.getSpaceById(S.dup)).data.deletedAt, undefined);
});

step('transferCollection into a second organization', async () => {
    need(S.org, S.inner);
    const org2 = await alice.orgs.createOrganization({ title: 'Today Two' });
    S.org2 = org2.data.id;
    const tc = await alice.collections.transferCollection(S.inner, { organization: S.org2 });
    assert.equal(tc.status, 200);
    assert.equal(tc.data.organization, S.org2);
    assert.ok(ids((await alice.orgs.listCollectionsInOrganizationById(S.org2)).data.items).includes(S.inner));
});

// ---------------------------------------------------------------------------------------------
// Change requests and content

step('createChangeRequest with a template, updateChangeRequestById with links', async () => {
    need(S.empty);
    const cr = await alice.spaces.createChangeRequest(S.empty, { subject: 'Templated', template: { id: 'product-guide' } });
    assert.equal(cr.status, 201);
    S.cr = cr.data.id;
    const pages = await alice.spaces.listPagesInChangeRequest(S.empty, S.cr);
    assert.ok(pages.data.pages.length > 0, 'the template wrote the change request\'s pages');
    const links = [{ ref: { kind: 'url', url: 'https://example.com/issue/1' }, title: 'Issue 1' }];
    const upd = await alice.spaces.updateChangeRequestById(S.empty, S.cr, { subject: 'Templated guide', links, description: BOTH_KINDS });
    assert.equal(upd.status, 200);
    assert.deepEqual(upd.data.description, BOTH_KINDS, 'the description is answered as sent');
    assert.equal(upd.data.subject, 'Templated guide');
    assert.equal(upd.data.links.length, 1);
    assert.deepEqual(upd.data.links[0].ref, links[0].ref);
    assert.equal(upd.data.links[0].title, 'Issue 1');
    const got = await alice.spaces.getChangeRequestById(S.empty, S.cr);
    assert.deepEqual(got.data.links.map((l) => l.ref.url), ['https://example.com/issue/1']);
    await rejectsWith(400, alice.spaces.updateChangeRequestById(S.empty, S.cr, { links: [{ ref: { kind: 'url', url: 'not a url' } }] }), 'a bad link');
});

step('updateChangeRequestContent: pages and a file, read back by every content read', async () => {
    need(S.cr);
    const r = await alice.spaces.updateChangeRequestContent(S.empty, S.cr, { changes: [
        { operation: 'insert_page', ref: 'notes', title: 'Release notes', document: { markdown: 'Shipped ![logo](./logo.png) today.\n' } },
        { operation: 'insert_files', files: [{ ref: 'logo.png', name: 'logo.png', contentType: 'image/png', base64: PNG }] },
        // A page cannot keep a block condition (its content would show to every visitor).
        { operation: 'insert_page', ref: 'kinds', title: 'Every kind',
            document: { document: { ...EVERY_KIND, nodes: EVERY_KIND.nodes.filter((n) => n.type !== 'if') } } },
    ] }, { compat: false });
    assert.equal(r.status, 200);
    const kinds = r.data.changes.filter((c) => c.object === 'created_page')[1].page.id;
    const kindsMD = (await alice.spaces.getPageInChangeRequestById(S.empty, S.cr, kinds, { format: 'markdown' })).data.markdown;
    for (const shows of ['<kbd>Ctrl</kbd>', 'term (A note)', '**Linux**', '1. First step', '$$E=mc^2$$']) {
        assert.ok(kindsMD.includes(shows), `the page of every kind shows ${shows}`);
    }
    const created = r.data.changes.find((c) => c.object === 'created_page');
    S.notes = created.page.id;
    S.file = r.data.insertedFiles[0].id;
    const byId = await alice.spaces.getPageInChangeRequestById(S.empty, S.cr, S.notes, { format: 'markdown' });
    assert.match(byId.data.markdown, /Shipped/);
    const byPath = await alice.spaces.getPageInChangeRequestByPath(S.empty, S.cr, byId.data.path);
    assert.equal(byPath.data.id, S.notes);
    const rev = await alice.spaces.getRevisionOfChangeRequestById(S.empty, S.cr);
    assert.equal(rev.data.object, 'revision');
    assert.ok(JSON.stringify(rev.data.pages).includes(S.notes));
    const files = await alice.spaces.listFilesInChangeRequestById(S.empty, S.cr);
    assert.deepEqual(ids(files.data.items), [S.file]);
    const file = await alice.spaces.getFileInChangeRequestById(S.empty, S.cr, S.file);
    assert.equal(file.data.name, 'logo.png');
    const pdf = await alice.spaces.getChangeRequestPdf(S.empty, S.cr, { only: true, page: S.notes });
    assert.ok(pdf.data.url.startsWith('http'), pdf.data.url);
});

step('change request lists, updateChangeRequest, mergeChangeRequest, space content reads', async () => {
    need(S.cr, S.notes, S.file);
    const inSpace = await alice.spaces.listChangeRequestsForSpace(S.empty, { status: 'open' });
    assert.deepEqual(ids(inSpace.data.items), [S.cr]);
    const inOrg = await alice.orgs.listChangeRequestsForOrganization(S.org);
    assert.ok(ids(inOrg.data.items).includes(S.cr));
    const up = await alice.spaces.updateChangeRequest(S.empty, S.cr);
    assert.equal(up.status, 200);
    const merged = await alice.spaces.mergeChangeRequest(S.empty, S.cr);
    assert.equal(merged.data.result, 'merge');
    assert.equal((await alice.spaces.getChangeRequestById(S.empty, S.cr)).data.status, 'merged');

    const current = await alice.spaces.getCurrentRevision(S.empty);
    assert.ok(JSON.stringify(current.data.pages).includes(S.notes));
    const page = await alice.spaces.getPageById(S.empty, S.notes, { format: 'document' });
    assert.equal(page.data.document.object, 'document');
    assert.equal((await alice.spaces.getPageByPath(S.empty, page.data.path)).data.id, S.notes);
    assert.deepEqual(ids((await alice.spaces.listFiles(S.empty)).data.items), [S.file]);
    assert.equal((await alice.spaces.getFileById(S.empty, S.file)).data.id, S.file);
    const hits = await alice.spaces.searchSpaceContent(S.empty, { query: 'shipped' });
    assert.ok(hits.data.items.some((p) => p.id === S.notes), 'the space search finds the page');
    const orgHits = await alice.orgs.searchOrganizationContent(S.org, { query: 'shipped' });
    assert.ok(orgHits.data.items.some((s) => s.id === S.empty), 'the organization search finds the space');
});

step('git sync: import and export runs, the git state; a loopback repository is refused', async () => {
    need(S.org);
    const sp = await alice.orgs.createSpace(S.org, { title: 'Git', empty: true });
    const space = sp.data.id;
    await rejectsWith(404, alice.spaces.getSpaceGitInfo(space), 'a space without a repository');
    await rejectsWith(400, alice.spaces.importGitRepository(space, { url: 'ssh://git@example.com/docs.git', ref: 'refs/heads/main' }), 'an ssh URL');
    await rejectsWith(400, alice.spaces.exportToGitRepository(space, { url: 'https://example.com/docs.git', ref: 'refs/heads/main',
        commitMessage: 'x', repoProjectDirectory: '../up' }), 'a folder out of the repository');
    // quire serves without --allow-private-urls here: a run against loopback fails and says why.
    const url = 'http://quire:secret-token@127.0.0.1:9/docs.git';
    const queued = await alice.spaces.importGitRepository(space, { url, ref: 'refs/heads/main', repoProjectDirectory: 'docs',
        repoCommitURL: 'https://example.com/docs/commit/', timestamp: new Date().toISOString(), gitInfo: { provider: 'gitlab' } });
    assert.equal(queued.status, 204);
    const failed = await eventually(async () => {
        const g = (await alice.spaces.getSpaceGitInfo(space)).data;
        return g.operation?.state === 'failure' && g;
    }, 'the import run to end');
    assert.equal(failed.operation.direction, 'import');
    assert.match(failed.operation.error, /not allowed \(loopback\)/);
    assert.equal(failed.installationProvider, 'gitlab');
    assert.ok(!JSON.stringify(failed).includes('secret-token'), 'the credentials are never answered');
    assert.equal((await alice.spaces.listPages(space)).data.pages.length, 0, 'the space is unchanged');
    assert.equal((await alice.spaces.exportToGitRepository(space, { url, ref: 'refs/heads/main', commitMessage: 'Docs', force: true })).status, 204);
    const exported = await eventually(async () => {
        const g = (await alice.spaces.getSpaceGitInfo(space)).data;
        return g.operation?.direction === 'export' && g.operation.state === 'failure' && g;
    }, 'the export run to end');
    assert.match(exported.operation.error, /not allowed/);
});

step('import runs: uploaded files imported, a run cancelled, a loopback website refused', async () => {
    need(S.org);
    const space = (await alice.orgs.createSpace(S.org, { title: 'Imported', empty: true })).data.id;
    const body = Buffer.from('# Release notes\n\nWhat *shipped*.\n');
    const up = await alice.orgs.generateStorageUploadUrl(S.org, { kind: 'import_file',
        file: { name: 'release-notes.md', type: 'text/markdown', size: body.length } });
    assert.equal(up.data.object, 'storage-signed-url');
    const put = await fetch(up.data.url, { method: 'PUT', body });
    assert.equal(put.status, 200);
    await rejectsWith(400, alice.org.startImportRun(S.org, { source: { type: 'file', files: ['import/nope'] }, target: { space } }),
        'an unknown file');
    const started = await alice.org.startImportRun(S.org, { source: { type: 'file', files: [up.data.key] }, target: { space } });
    assert.equal(started.status, 201);
    assert.equal(started.data.object, 'import-run');
    const done = await eventually(async () => {
        const r = (await alice.org.getImportRun(S.org, started.data.id)).data;
        return (r.status === 'completed' || r.status === 'failed') && r;
    }, 'the import run to end');
    assert.equal(done.status, 'completed', done.reason);
    assert.equal(done.pages.length, 1);
    const pages = (await alice.spaces.listPages(space)).data.pages;
    assert.deepEqual(pages.map((p) => p.title), ['Release notes']);
    assert.equal(pages[0].id, done.pages[0].id);
    const listed = await alice.org.listImportRuns(S.org, { space });
    assert.deepEqual(ids(listed.data.items), [started.data.id]);

    // quire serves without --allow-private-urls here: a loopback website fails and says why; a
    // run cancelled before its turn never runs.
    const site = await alice.org.startImportRun(S.org, { source: { type: 'website', url: 'http://127.0.0.1:9/' }, target: { space },
        enhance: false });
    const failed = await eventually(async () => {
        const r = (await alice.org.getImportRun(S.org, site.data.id)).data;
        return r.status === 'failed' && r;
    }, 'the website run to fail');
    assert.match(failed.reason, /not allowed/);
    await rejectsWith(409, alice.org.cancelImportRun(S.org, site.data.id), 'an ended run');
    const again = await alice.org.startImportRun(S.org, { source: { type: 'file', files: [up.data.key] }, target: { space } });
    try {
        assert.equal((await alice.org.cancelImportRun(S.org, again.data.id)).data.status, 'cancelled');
    } catch (e) {
        assert.equal(e.code, 409, `a run that ended before its cancel: ${e}`);
    }
});

step('revision-pinned reads, semantic changes, documents and meta-links', async () => {
    need(S.cr, S.notes, S.file);
    const rev = (await alice.spaces.getCurrentRevision(S.empty)).data.id;
    const r = await alice.spaces.getRevisionById(S.empty, rev, { metadata: true });
    assert.equal(r.data.id, rev);
    assert.equal(r.data.mergedFrom?.id, S.cr, 'the merge revision names the change request it merged');
    const tree = await alice.spaces.listPagesInRevisionById(S.empty, rev);
    assert.ok(JSON.stringify(tree.data.pages).includes(S.notes));
    const md = await alice.spaces.getPageInRevisionById(S.empty, rev, S.notes, { format: 'markdown', 'format.markdown.refs': 'stable' });
    assert.equal(typeof md.data.markdown, 'string');
    const page = await alice.spaces.getPageInRevisionById(S.empty, rev, S.notes);
    assert.equal(page.data.document.object, 'document');
    assert.equal((await alice.spaces.getPageInRevisionByPath(S.empty, rev, encodeURIComponent(page.data.path))).data.id, S.notes);
    const doc = await alice.spaces.getPageDocumentInRevisionById(S.empty, rev, S.notes, { evaluated: 'deterministic-only', dereferenced: 'reusable-contents' });
    assert.deepEqual(doc.data, page.data.document);
    assert.deepEqual((await alice.spaces.getDocumentById(S.empty, page.data.documentId)).data.object, 'document');
    assert.deepEqual(ids((await alice.spaces.listFilesInRevisionById(S.empty, rev)).data.items), [S.file]);
    assert.equal((await alice.spaces.getFileInRevisionById(S.empty, rev, S.file)).data.id, S.file);
    const changes = await alice.spaces.getRevisionSemanticChanges(S.empty, rev, { limit: 100, metadata: false, computed: false });
    assert.ok(changes.data.changes.some((c) => c.page?.id === S.notes || c.file?.id === S.file), 'the merge lists what it changed');
    const crChanges = await alice.spaces.getChangeRequestChanges(S.empty, S.cr, { limit: 100 });
    assert.ok(Array.isArray(crChanges.data.changes));
    await rejectsWith(404, alice.spaces.getRevisionById(S.empty, 'no-such-revision'), 'an unknown revision');
    for (const links of [
        await alice.spaces.listSpacePageMetaLinks(S.empty, S.notes),
        await alice.spaces.listRevisionPageMetaLinks(S.empty, rev, S.notes),
        await alice.spaces.listChangeRequestPageMetaLinks(S.empty, S.cr, S.notes),
    ]) {
        assert.deepEqual(links.data.alternates, [], 'an untranslated page has no alternates');
    }
});

step('reusable contents: written by the batch, read in the change request, the space and a revision', async () => {
    const cr = (await alice.spaces.createChangeRequest(S.empty, { subject: 'Reusable' })).data.id;
    // insert_reusable_content is quire's own batch operation (0.202.0's batch has none).
    const up = await alice.spaces.updateChangeRequestContent(S.empty, cr, { changes: [
        { operation: 'insert_reusable_content', ref: 'warn', title: 'Warning', document: { markdown: 'Mind the gap.\n' } },
    ] }, { compat: false });
    const rc = up.data.reusableContents?.[0]?.id;
    assert.ok(rc, 'the batch answers the new reusable content');
    const inCR = await alice.spaces.getReusableContentInChangeRequestById(S.empty, cr, rc, { metadata: false, computed: false });
    assert.equal(inCR.data.title, 'Warning');
    await rejectsWith(404, alice.spaces.getReusableContentById(S.empty, rc), 'not in main before the merge');
    await alice.spaces.mergeChangeRequest(S.empty, cr);
    const cur = await alice.spaces.getReusableContentById(S.empty, rc);
    assert.deepEqual({ id: cur.data.id, title: cur.data.title }, { id: rc, title: 'Warning' });
    const rev = (await alice.spaces.getCurrentRevision(S.empty)).data.id;
    assert.equal((await alice.spaces.getReusableContentInRevisionById(S.empty, rev, rc)).data.document, cur.data.document);
    const doc = await alice.spaces.getReusableContentDocumentInRevisionById(S.empty, rev, rc, { evaluated: 'deterministic-only', dereferenced: 'reusable-contents' });
    assert.equal(doc.data.object, 'document');
    assert.match(JSON.stringify(doc.data), /Mind the gap/);
});

step('embeds: a URL that cannot be read is a link; a loopback one is refused', async () => {
    need(S.empty);
    // The suite serves quire without --allow-private-urls and has no network: a name under
    // .invalid never resolves, and loopback is refused by the guarded fetcher.
    const link = 'https://docs.example.invalid/guide';
    const e = await alice.urls.getEmbedByUrl({ url: link });
    assert.deepEqual(e.data, { type: 'link', title: link, site: 'docs.example.invalid' });
    const inSpace = await alice.spaces.getEmbedByUrlInSpace(S.empty, { url: link });
    assert.deepEqual(inSpace.data, e.data);
    await rejectsWith(400, alice.urls.getEmbedByUrl({ url: QUIRE_URL + '/healthz' }), 'a loopback URL');
});

step('applyTemplateToSpace into a change request', async () => {
    need(S.dup);
    const cr = await alice.spaces.createChangeRequest(S.dup, { subject: 'Template again' });
    const r = await alice.spaces.applyTemplateToSpace(S.dup, { id: 'product-guide', changeRequestId: cr.data.id });
    assert.equal(r.status, 204);
    const pages = await alice.spaces.listPagesInChangeRequest(S.dup, cr.data.id);
    assert.ok(pages.data.pages.length > 0);
    await rejectsWith(400, alice.spaces.applyTemplateToSpace(S.dup, { id: 'no-such-template' }), 'an unknown template');
});

// ---------------------------------------------------------------------------------------------
// Comments, in the space and in a change request

async function commentThread(space, crId, pageId) {
    const fam = crId ? 'ChangeRequest' : 'Space';
    const args = (...rest) => (crId ? [space, crId, ...rest] : [space, ...rest]);
    const api = alice.spaces;
    const posted = await api[`postCommentIn${fam}`](...args({ page: pageId, body: { markdown: 'Is this **right**?' } }));
    assert.equal(posted.status, 200);
    const c = posted.data;
    assert.equal(c.body.markdown, 'Is this **right**?');
    assert.equal((await api[`getCommentIn${fam}`](...args(c.id, { format: 'document' }))).data.body.document.object, 'document');
    const reply = await api[`postCommentReplyIn${fam}`](...args(c.id, { body: { markdown: 'Yes.' } }));
    assert.equal(reply.data.object, 'comment-reply');
    assert.deepEqual(ids((await api[`listCommentRepliesIn${fam}`](...args(c.id))).data.items), [reply.data.id]);
    assert.equal((await api[`getCommentReplyIn${fam}`](...args(c.id, reply.data.id))).data.body.markdown, 'Yes.');
    const edited = await api[`updateCommentReplyIn${fam}`](...args(c.id, reply.data.id, { body: { markdown: 'Yes!' } }));
    assert.equal(edited.data.body.markdown, 'Yes!');
    // Every kind of node, as a document, in a comment, a reply and their edits.
    const rich = await api[`postCommentIn${fam}`](...args({ body: { document: EVERY_KIND } }));
    assert.ok(rich.data.body.markdown.includes('<kbd>Ctrl</kbd>'), rich.data.body.markdown);
    const richEdit = await api[`updateCommentIn${fam}`](...args(rich.data.id, { body: { document: EVERY_KIND } }));
    assert.equal(richEdit.data.body.markdown, rich.data.body.markdown);
    const richReply = await api[`postCommentReplyIn${fam}`](...args(rich.data.id, { body: { document: EVERY_KIND } }));
    assert.equal(richReply.data.body.markdown, rich.data.body.markdown);
    const richReplyEdit = await api[`updateCommentReplyIn${fam}`](...args(rich.data.id, richReply.data.id, { body: { document: EVERY_KIND } }));
    assert.equal(richReplyEdit.data.body.markdown, rich.data.body.markdown);
    assert.equal((await api[`deleteCommentIn${fam}`](...args(rich.data.id))).status, 204);
    const resolved = await api[`updateCommentIn${fam}`](...args(c.id, { resolved: true }));
    assert.equal(resolved.data.status, 'resolved');
    assert.equal((await api[`listCommentsIn${fam}`](...args({ status: 'open' }))).data.count, 0);
    assert.deepEqual(ids((await api[`listCommentersIn${fam}`](...args())).data.items), [S.aliceId]);
    assert.equal((await api[`deleteCommentReplyIn${fam}`](...args(c.id, reply.data.id))).status, 204);
    assert.equal((await api[`deleteCommentIn${fam}`](...args(c.id))).status, 204);
    await rejectsWith(404, api[`getCommentIn${fam}`](...args(c.id)), 'a deleted comment');
}

step('comments: a thread on the space and one on a change request', async () => {
    need(S.empty, S.notes, S.aliceId);
    await commentThread(S.empty, null, S.notes);
    const cr = await alice.spaces.createChangeRequest(S.empty, { subject: 'Discuss' });
    await commentThread(S.empty, cr.data.id, S.notes);
});

// ---------------------------------------------------------------------------------------------
// Sites

step('sites: create, update with defaultLevel, spaces with draft and hidden', async () => {
    need(S.org, S.space, S.empty);
    const site = await alice.orgs.createSite(S.org, { title: 'Today docs' });
    assert.equal(site.status, 201);
    S.site = site.data.id;
    const upd = await alice.orgs.updateSiteById(S.org, S.site, { title: 'Today site', defaultLevel: 'inherit', basename: 'today' });
    assert.equal(upd.data.title, 'Today site');
    assert.equal(upd.data.defaultLevel, 'inherit');
    const got = await alice.orgs.getSiteById(S.org, S.site);
    assert.equal(got.data.defaultLevel, 'inherit');
    assert.ok(ids((await alice.orgs.listSites(S.org)).data.items).includes(S.site));

    const a = await alice.orgs.addSpaceToSite(S.org, S.site, { spaceId: S.space });
    assert.equal(a.status, 201);
    const b = await alice.orgs.addSpaceToSite(S.org, S.site, { spaceId: S.empty, draft: true });
    assert.equal(b.data.draft, true);
    S.siteSpace = b.data.id;
    const hid = await alice.orgs.updateSiteSpaceById(S.org, S.site, S.siteSpace, { hidden: true, draft: false, path: 'ruled' });
    assert.equal(hid.data.hidden, true);
    assert.equal(hid.data.draft, false);
    assert.equal(hid.data.path, 'ruled');
    const listed = await alice.orgs.listSiteSpaces(S.org, S.site);
    assert.deepEqual(ids(listed.data.items), [a.data.id, S.siteSpace]);
    const mv = await alice.orgs.moveSiteSpace(S.org, S.site, S.siteSpace, { position: { before: { type: 'site-space', siteSpace: a.data.id } } });
    assert.equal(mv.status, 200);
    assert.deepEqual(ids((await alice.orgs.listSiteSpaces(S.org, S.site)).data.items), [S.siteSpace, a.data.id]);
    assert.equal((await alice.orgs.deleteSiteSpaceById(S.org, S.site, S.siteSpace)).status, 204);
    assert.deepEqual(ids((await alice.orgs.listSiteSpaces(S.org, S.site)).data.items), [a.data.id]);
});

step('site sections and groups with draft, localizedTitle and siteSectionGroupId', async () => {
    need(S.site, S.space, S.empty);
    const g = await alice.orgs.addSectionGroupToSite(S.org, S.site, { title: 'Products', draft: true });
    assert.equal(g.status, 201);
    S.group = g.data.id;
    const one = await alice.orgs.addSectionToSite(S.org, S.site, { spaceId: S.space, title: 'Guide', siteSectionGroupId: S.group, draft: true });
    assert.equal(one.status, 201);
    assert.equal(one.data.draft, true);
    const two = await alice.orgs.addSectionToSite(S.org, S.site, { spaceId: S.empty, title: 'Notes' });
    S.section = two.data.id;
    const upd = await alice.orgs.updateSiteSectionById(S.org, S.site, S.section, {
        localizedTitle: { fr: 'Notes de version' }, siteSectionGroupId: S.group, draft: false, icon: 'book',
    });
    assert.equal(upd.status, 200);
    assert.deepEqual(upd.data.localizedTitle, { fr: 'Notes de version' });
    assert.equal(upd.data.icon, 'book');
    const sections = await alice.orgs.listSiteSections(S.org, S.site);
    assert.ok(ids(sections.data.items).includes(S.section));
    const groups = await alice.orgs.listSiteSectionGroups(S.org, S.site);
    const group = groups.data.items.find((x) => x.id === S.group);
    assert.deepEqual(ids(group.sections), [one.data.id, S.section], 'both sections are in the group');
    const ug = await alice.orgs.updateSiteSectionGroupById(S.org, S.site, S.group, { title: 'All products', localizedTitle: { fr: 'Produits' }, draft: false });
    assert.equal(ug.data.title, 'All products');
    assert.deepEqual(ug.data.localizedTitle, { fr: 'Produits' });
    const mv = await alice.orgs.moveSiteSection(S.org, S.site, S.section, { position: { before: { type: 'site-section', siteSection: one.data.id } } });
    assert.equal(mv.status, 200);
    const after = (await alice.orgs.listSiteSectionGroups(S.org, S.site)).data.items.find((x) => x.id === S.group);
    assert.deepEqual(ids(after.sections), [S.section, one.data.id]);
    await rejectsWith(400, alice.orgs.updateSiteSectionById(S.org, S.site, S.section, { localizedTitle: { klingon: 'x' } }), 'an unknown language');
});

step('site sections and site spaces made from a template; nested groups', async () => {
    need(S.site);
    // spaceId null: the template makes the section's (and the site space's) new space.
    const sec = await alice.orgs.addSectionToSite(S.org, S.site, { spaceId: null, title: 'Handbook', template: { id: 'product-guide' }, icon: 'star' });
    assert.equal(sec.status, 201);
    assert.equal(sec.data.title, 'Handbook');
    const newSpace = sec.data.siteSpaces[0].space.id;
    assert.ok(![S.space, S.empty].includes(newSpace), 'a new space');
    assert.ok((await alice.spaces.listPages(newSpace)).data.pages.length > 0, 'the template wrote its pages');
    const ss = await alice.orgs.addSpaceToSite(S.org, S.site, { spaceId: null, template: { id: 'product-guide' }, sectionId: sec.data.id, title: 'Handbook 2' });
    assert.equal(ss.status, 201);
    assert.ok((await alice.spaces.listPages(ss.data.space.id)).data.pages.length > 0);
    await rejectsWith(400, alice.orgs.addSectionToSite(S.org, S.site, { title: 'Both', spaceId: S.space, template: { id: 'product-guide' } }), 'a space and a template');

    const outer = await alice.orgs.addSectionGroupToSite(S.org, S.site, { title: 'Outer', icon: 'folder', sections: [sec.data.id] });
    assert.deepEqual(outer.data.sections.map((x) => x.id), [sec.data.id]);
    const inner = await alice.orgs.addSectionGroupToSite(S.org, S.site, { title: 'Inner', parent: outer.data.id });
    assert.equal(inner.data.sectionGroup, outer.data.id);
    const out = await alice.orgs.updateSiteSectionGroupById(S.org, S.site, inner.data.id, { parentSectionGroupId: null });
    assert.equal(out.data.sectionGroup, undefined, 'moved out of its parent');
    assert.equal((await alice.orgs.deleteSiteSectionGroupById(S.org, S.site, inner.data.id)).status, 204);
    assert.equal((await alice.orgs.deleteSiteSectionGroupById(S.org, S.site, outer.data.id)).status, 204);
    assert.equal((await alice.orgs.deleteSiteSectionById(S.org, S.site, sec.data.id)).status, 204);
});

step('adaptive schema, publishing, and deleting sites', async () => {
    need(S.site, S.section, S.group);
    const schema = await alice.orgs.updateSiteAdaptiveSchema(S.org, S.site, { jsonSchema: {
        type: 'object', properties: { unsigned: { type: 'object', properties: { plan: { type: 'string', description: 'The plan' } }, additionalProperties: false } },
        additionalProperties: false,
    } });
    assert.equal(schema.status, 200);
    assert.equal((await alice.orgs.getSiteAdaptiveSchema(S.org, S.site)).data.jsonSchema.type, 'object');
    const conds = await alice.orgs.listSiteAdaptiveTemplateConditions(S.org, S.site);
    assert.equal(conds.status, 200);
    const pub = await alice.orgs.publishSite(S.org, S.site);
    assert.equal(pub.data.published, true);
    const view = await alice.orgs.getPublishedContentSite(S.org, S.site);
    assert.equal(view.data.object, 'published-content-site');
    assert.equal((await alice.orgs.unpublishSite(S.org, S.site)).data.published, false);
    assert.equal((await alice.orgs.deleteSiteSectionById(S.org, S.site, S.section)).status, 204);
    assert.equal((await alice.orgs.deleteSiteSectionGroupById(S.org, S.site, S.group)).status, 204);
    const gone = await alice.orgs.createSite(S.org, { title: 'Short-lived' });
    assert.equal((await alice.orgs.deleteSiteById(S.org, gone.data.id)).status, 204);
    await rejectsWith(404, alice.orgs.getSiteById(S.org, gone.data.id), 'a deleted site');
});

step('a published site as a renderer reads it: URL resolution, its site token, search, redirects, events', async () => {
    need(S.org, S.space);
    const site = await alice.orgs.createSite(S.org, { title: 'Rendered', spaces: [S.space] });
    const host = `rendered-${RUN}.docs.test`;
    await alice.orgs.updateSiteById(S.org, site.data.id, { hostname: host });
    await alice.orgs.publishSite(S.org, site.data.id);
    assert.equal((await alice.orgs.getSiteById(S.org, site.data.id)).data.urls.published, `https://${host}`);
    const pages = (await alice.spaces.listPages(S.space)).data.pages;
    const page = pages[0];
    const found = await alice.urls.resolvePublishedContentByUrl({ url: `https://${host}/${page.path}`,
        visitor: { type: 'human', unsignedClaims: {} }, redirectOnError: false });
    assert.equal(found.status, 200);
    assert.equal(found.data.site, site.data.id);
    assert.equal(found.data.space, S.space);
    assert.equal(found.data.pathname, page.path);
    assert.equal(found.data.siteBasePath, '/');
    assert.equal(found.data.complete, true);
    assert.equal(found.data.canonicalUrl, `https://${host}/${page.path}`);
    const exp = JSON.parse(Buffer.from(found.data.apiToken.split('.')[1], 'base64url').toString()).exp;
    assert.ok(exp > Date.now() / 1000 + 120, 'the site token lives more than two minutes');
    const via = await alice.urls.getPublishedContentByUrl({ url: `${QUIRE_URL}/s/${site.data.id}/${page.path}` });
    assert.equal(via.data.target, 'content');
    assert.equal(via.data.redirect, `https://${host}/${page.path}`);
    await rejectsWith(404, alice.urls.resolvePublishedContentByUrl({ url: `https://nothing-${RUN}.docs.test/` }), 'an unknown hostname');
    const app = await alice.urls.getContentByUrl({ url: `${QUIRE_URL}/app/s/${S.space}/${page.path}` });
    assert.equal(app.data.space.id, S.space);
    assert.equal(app.data.page.id, page.id);

    // The site token reads the site and its space, nothing else.
    const renderer = client(found.data.apiToken, { latest: true });
    assert.equal((await renderer.spaces.getSpaceById(S.space)).status, 200);
    assert.equal((await renderer.orgs.getPublishedContentSite(S.org, site.data.id)).status, 200);
    const word = page.title.split(/\s+/)[0];
    const hits = await renderer.orgs.searchSiteContent(S.org, site.data.id, { query: word, mode: 'all' });
    assert.equal(hits.status, 200);
    assert.deepEqual(ids(hits.data.items), [S.space]);
    const scoped = await alice.orgs.searchSiteContent(S.org, site.data.id, { query: word, scope: { mode: 'all' } });
    assert.deepEqual(ids(scoped.data.items), [S.space]);
    await rejectsWith(400, alice.orgs.searchSiteContent(S.org, site.data.id, { query: word, mode: 'current' }), 'mode current without siteSpaceId');
    assert.equal((await renderer.orgs.prewarmSiteSearch(S.org, site.data.id)).status, 204);
    await rejectsWith(404, renderer.spaces.getSpaceById(S.empty), 'a space the site does not publish');
    await rejectsWith(403, renderer.orgs.listSites(S.org), 'an organization read');
    await rejectsWith(403, renderer.spaces.createChangeRequest(S.space, { subject: 'No' }), 'a write');

    const me = await renderer.users.getUserById(S.aliceId);
    assert.equal(me.data.id, S.aliceId);
    assert.equal((await bob.users.getUserById(S.aliceId)).data.displayName, me.data.displayName);
    await rejectsWith(404, renderer.orgs.getSiteRedirectBySource(S.org, site.data.id, { source: '/no/such/path' }), 'no redirect');
    const event = { type: 'page_view', session: { sessionId: 's', visitorId: 'v', userAgent: 'compat', cookies: {}, language: null, referrer: null },
        location: { url: `https://${host}/${page.path}`, siteSection: null, siteSpace: null, siteShareKey: null, space: S.space, revision: null, page: page.id },
        timestamp: new Date().toISOString() };
    assert.equal((await alice.orgs.trackEventsInSiteById(S.org, site.data.id, { events: [event] })).status, 204);
    await rejectsWith(400, alice.orgs.trackEventsInSiteById(S.org, site.data.id, { events: [{ ...event, timestamp: '2001-01-01T00:00:00Z' }] }), 'an old event');
    const views = await alice.orgs.aggregateSiteEvents(S.org, site.data.id, { range: 'last24Hours',
        select: [{ column: 'page' }, { column: 'eventsCount' }], groupBy: [{ column: 'page' }],
        where: [{ column: 'eventType', values: ['page_view'] }] });
    assert.deepEqual(views.data.columns.map((c) => c.column), ['page', 'eventsCount']);
    assert.deepEqual(views.data.columns[0].values, [{ space: S.space, page: page.id }]);
    assert.deepEqual(views.data.columns[1].values, [1]);
    await rejectsWith(400, alice.orgs.aggregateSiteEvents(S.org, site.data.id, { range: 'last7Days', groupBy: [{ column: 'visitorBrowser' }] }), 'a column quire does not record');
    const segments = await alice.orgs.listSiteVisitorSegments(S.org, site.data.id);
    assert.equal(segments.data.items.length, 1);
    assert.equal(segments.data.items[0].events, 1);
});

step('running a site: redirects, share links, visitor authentication, customization, hostnames, subdomain', async () => {
    need(S.org, S.space);
    const site = await alice.orgs.createSite(S.org, { title: 'Run', spaces: [S.space], visibility: 'share-link' });
    const id = site.data.id;
    await alice.orgs.publishSite(S.org, id);
    const page = (await alice.spaces.listPages(S.space)).data.pages[0];
    const ss = (await alice.orgs.listSiteSpaces(S.org, id)).data.items[0].id;

    const structure = await alice.orgs.getSiteStructure(S.org, id);
    assert.equal(structure.data.type, 'siteSpaces');
    assert.deepEqual(ids(structure.data.structure), [ss]);
    const r = await alice.orgs.createSiteRedirect(S.org, id, { source: '/old', destination: { kind: 'site-page', siteSpaceId: ss, pageId: page.id } });
    assert.equal(r.status, 201);
    assert.equal(r.data.object, 'site-redirect');
    // Wildcard sources and external destinations are 0.202.0's: 0.146.0's SiteRedirect, which
    // these answers are checked against too, cannot hold them (the Go tests cover them).
    const viaPath = await alice.orgs.createSiteRedirect(S.org, id, { source: '/older', permanent: true,
        destination: { kind: 'path', spaceId: S.space, path: page.path } });
    assert.equal(viaPath.data.destination.kind, 'site-page');
    assert.equal(viaPath.data.destination.pageId, page.id);
    await rejectsWith(400, alice.orgs.createSiteRedirect(S.org, id, { source: `/${page.path}`,
        destination: { kind: 'site-page', siteSpaceId: ss, pageId: page.id } }), 'a redirect to its own source');
    await rejectsWith(400, alice.orgs.createSiteRedirect(S.org, id, { source: '/x', destination: { kind: 'site-space', siteSpaceId: 'nope' } }), 'another site\'s content');
    assert.deepEqual(ids((await alice.orgs.listSiteRedirects(S.org, id, { orderBy: 'source' })).data.items), [r.data.id, viaPath.data.id]);
    assert.equal((await alice.orgs.updateSiteRedirectById(S.org, id, r.data.id, { permanent: true })).data.permanent, true);
    const bulk = await alice.orgs.bulkUpsertSiteRedirects(S.org, id, { redirects: [
        { source: '/draft', intent: 'draft', destination: { kind: 'site-space', siteSpaceId: ss } },
        { source: '/draft', intent: 'publish' },
    ] });
    assert.deepEqual(bulk.data.results.map((x) => x.status), ['created', 'published']);
    const resolved = await alice.orgs.getSiteRedirectBySource(S.org, id, { source: '/draft' });
    assert.ok(resolved.data.target.startsWith(`${QUIRE_URL}/s/${id}`), resolved.data.target);
    assert.equal((await alice.orgs.deleteSiteRedirectById(S.org, id, r.data.id)).status, 205);
    assert.equal((await alice.orgs.deleteSiteRedirectById(S.org, id, r.data.id)).status, 204);

    const link = await alice.orgs.createSiteShareLink(S.org, id, { name: 'Partners' });
    assert.equal(link.status, 201);
    const key = new URL(link.data.urls.published).searchParams.get('share');
    assert.equal((await alice.orgs.getPublishedContentSite(S.org, id, { shareKey: key })).status, 200);
    const off = await alice.orgs.updateSiteShareLinkById(S.org, id, link.data.id, { active: false });
    assert.equal(off.data.active, false);
    await rejectsWith(404, alice.orgs.getPublishedContentSite(S.org, id, { shareKey: key }), 'a disabled share link');
    assert.deepEqual(ids((await alice.orgs.listSiteShareLinks(S.org, id)).data.items), [link.data.id]);
    assert.equal((await alice.orgs.deleteSiteShareLinkById(S.org, id, link.data.id)).status, 205);

    const custom = await alice.orgs.updateSiteCustomizationById(S.org, id, { title: 'Branded docs',
        styling: { primaryColor: { light: '#112233', dark: '#445566' } }, themes: { default: 'dark', toggeable: true },
        header: { preset: 'default', links: [{ title: 'Blog', to: { kind: 'url', url: 'https://example.com/blog' }, links: [] }] } });
    assert.equal(custom.data.title, 'Branded docs');
    assert.equal(custom.data.styling.corners, 'rounded');
    assert.equal((await alice.orgs.getSiteCustomizationById(S.org, id)).data.themes.default, 'dark');
    await rejectsWith(400, alice.orgs.updateSiteCustomizationById(S.org, id, { themes: { default: 'sepia' } }), 'a theme quire does not know');
    const over = await alice.orgs.overrideSiteSpaceCustomizationById(S.org, id, ss, { title: 'Version docs' });
    assert.equal(over.data.title, 'Version docs');
    assert.equal(over.data.styling.primaryColor.light, '#112233');
    assert.equal((await alice.orgs.getSiteSpaceCustomizationById(S.org, id, ss)).data.title, 'Version docs');
    assert.equal((await alice.orgs.deleteSiteSpaceCustomizationById(S.org, id, ss)).status, 205);
    assert.equal((await alice.orgs.getSiteSpaceCustomizationById(S.org, id, ss)).data.title, 'Branded docs');

    const auth = await alice.orgs.getSitePublishingAuthById(S.org, id);
    assert.equal(auth.data.object, 'publishing-auth');
    const upd = await alice.orgs.updateSitePublishingAuthById(S.org, id, { backend: 'custom', fallbackURL: 'https://login.example.com/' });
    assert.equal(upd.data.fallbackURL, 'https://login.example.com/');
    const regen = await alice.orgs.regenerateSitePublishingAuthById(S.org, id);
    assert.notEqual(regen.data.privateKey, auth.data.privateKey);
    const preview = await alice.orgs.getSitePublishingPreviewById(S.org, id, { claims: '(plan:pro)' });
    assert.ok(new URL(preview.data.url).searchParams.get('jwt_token'));

    const host = `run-${RUN}.docs.test`;
    await alice.orgs.updateSiteById(S.org, id, { hostname: host });
    const h = await alice.customHostnames.getCustomHostname(host);
    assert.equal(h.data.target.site, id);
    assert.equal(h.data.isActive, false);
    await rejectsWith(409, alice.customHostnames.dnsRevalidateCustomHostname(host), 'a name that does not point at quire');
    assert.equal((await alice.customHostnames.removeCustomHostname(host)).status, 205);
    await rejectsWith(404, alice.customHostnames.getCustomHostname(host), 'a removed hostname');

    const sub = `today-${RUN}`;
    await alice.orgs.updateOrganizationById(S.org, { hostname: sub });
    const got = await alice.subdomains.getSubdomain(sub);
    assert.equal(got.data.target.organization, S.org);
    await rejectsWith(404, bob.subdomains.getSubdomain(`nobody-${RUN}`), 'an unknown subdomain');
});

step('a site\'s navigation and fonts: external links, sorting, a section group moved, a site space duplicated, the site template, custom fonts', async () => {
    need(S.org, S.space);
    const site = await alice.orgs.createSite(S.org, { title: 'Navigation', visibility: 'public' });
    const id = site.data.id;
    const first = await alice.orgs.addSectionToSite(S.org, id, { spaceId: S.space, title: 'First' });
    const second = await alice.orgs.addSectionToSite(S.org, id, { spaceId: S.space, title: 'Second' });
    await rejectsWith(400, alice.orgs.addExternalLinkToSite(S.org, id, { title: 'Bad', url: 'javascript:alert(1)' }), 'a link that is not a web address');
    const link = await alice.orgs.addExternalLinkToSite(S.org, id, { title: 'Blog', url: 'https://example.com/blog' });
    assert.equal(link.status, 201);
    assert.equal(link.data.object, 'site-external-link');
    const group = await alice.orgs.addSectionGroupToSite(S.org, id, { title: 'More' });
    const moved = await alice.orgs.updateSiteExternalLinkById(S.org, id, link.data.id, { title: 'Our blog', parent: group.data.id });
    assert.equal(moved.data.sectionGroup, group.data.id);
    const sorted = await alice.orgs.sortSiteStructure(S.org, id, { item: { type: 'site-section', id: second.data.id },
        position: { before: { type: 'site-section', id: first.data.id } } });
    assert.equal(sorted.data.id, second.data.id);
    // Next to the link, in its group: the section moves into the group. (A link as the moved
    // item is 0.202.0's: 0.146.0's SiteStructureItem, which answers are checked against too,
    // cannot hold one; the Go tests cover it.)
    const intoGroup = await alice.orgs.sortSiteStructure(S.org, id, { item: { type: 'site-section', id: first.data.id },
        position: { before: { type: 'site-external-link', id: link.data.id } } });
    assert.equal(intoGroup.data.sectionGroup, group.data.id);
    await rejectsWith(400, alice.orgs.sortSiteStructure(S.org, id, { item: { type: 'site-section', id: first.data.id },
        position: { after: { type: 'site-space', id: 'nope' } } }), 'a section next to a site space');
    assert.equal((await alice.orgs.deleteSiteExternalLinkById(S.org, id, link.data.id)).status, 205);
    assert.equal((await alice.orgs.deleteSiteExternalLinkById(S.org, id, link.data.id)).status, 204);
    // (With the link gone: 0.146.0's SiteSectionGroup cannot hold a link among its children.)
    const g = await alice.orgs.moveSiteSectionGroup(S.org, id, group.data.id, { position: { before: { type: 'site-section', id: second.data.id } } });
    assert.equal(g.data.id, group.data.id);

    const variant = first.data.siteSpaces[0].id;
    const dup = await alice.orgs.duplicateSiteSpace(S.org, id, variant, { draft: true });
    assert.equal(dup.status, 201);
    assert.equal(dup.data.draft, true);
    assert.equal(dup.data.section, first.data.id);
    assert.notEqual(dup.data.space.id, S.space);
    assert.equal((await alice.orgs.applyTemplateToSite(S.org, id)).status, 200);
    const titles = (await alice.orgs.listSiteSections(S.org, id)).data.items.map((x) => x.title);
    assert.deepEqual(titles.slice(-2), ['Product guide', 'API reference']);

    const bytes = Buffer.concat([Buffer.from('wOF2'), Buffer.alloc(60)]);
    const up = await alice.orgs.generateStorageUploadUrl(S.org, { kind: 'customization_font',
        file: { name: 'acme.woff2', type: 'font/woff2', size: bytes.length } });
    assert.equal((await fetch(up.data.url, { method: 'PUT', body: bytes })).status, 200);
    const notFont = Buffer.from('<svg onload="alert(1)"></svg>');
    const up2 = await alice.orgs.generateStorageUploadUrl(S.org, { kind: 'customization_font',
        file: { name: 'evil.woff2', type: 'font/woff2', size: notFont.length } });
    assert.equal((await fetch(up2.data.url, { method: 'PUT', body: notFont })).status, 400);
    const font = await alice.orgs.createCustomFont(S.org, { fontFamily: 'Acme Sans', fontFaces: [{ weight: 400, storageKey: up.data.key }] });
    assert.equal(font.status, 201);
    assert.equal(font.data.custom, true);
    assert.equal(font.data.fontFaces[0].sources[0].format, 'woff2');
    const file = await fetch(font.data.fontFaces[0].sources[0].url);
    assert.equal(file.headers.get('content-type'), 'font/woff2');
    assert.deepEqual(ids((await alice.orgs.listCustomFonts(S.org)).data.items), [font.data.id]);
    assert.equal((await alice.orgs.getCustomFont(S.org, font.data.id)).data.fontFamily, 'Acme Sans');
    assert.equal((await alice.orgs.updateCustomFont(S.org, font.data.id, { fontFamily: 'Acme Sans 2' })).data.fontFamily, 'Acme Sans 2');
    await rejectsWith(412, alice.orgs.updateCustomFont(S.org, font.data.id, { fontFaces: [{ weight: 400, storageKey: null }] }), 'a font without its regular weight');
    const styled = await alice.orgs.updateSiteCustomizationById(S.org, id, { styling: { font: {
        id: font.data.id, custom: true, fontFamily: 'Acme Sans 2', fontFaces: font.data.fontFaces } } });
    assert.equal(styled.data.styling.font.id, font.data.id);
    assert.equal((await alice.orgs.deleteCustomFont(S.org, font.data.id)).status, 205);
    assert.equal((await alice.orgs.deleteCustomFont(S.org, font.data.id)).status, 204);
});

// ---------------------------------------------------------------------------------------------
// OpenAPI specifications, SSO, translations

step('openapi specifications: create, process, versions, content, update, delete', async () => {
    need(S.org);
    const c = await alice.orgs.createOpenApiSpec(S.org, { slug: 'petstore', source: { text: PETSTORE } });
    assert.equal(c.status, 201);
    const done = await eventually(async () => {
        const s = (await alice.orgs.getOpenApiSpecBySlug(S.org, 'petstore')).data;
        return s.lastVersion ? s : null;
    }, 'the specification to be processed');
    const versions = await alice.orgs.listOpenApiSpecVersions(S.org, 'petstore');
    assert.deepEqual(ids(versions.data.items), [done.lastVersion]);
    assert.equal((await alice.orgs.getLatestOpenApiSpecVersion(S.org, 'petstore')).data.id, done.lastVersion);
    assert.equal((await alice.orgs.getOpenApiSpecVersionById(S.org, 'petstore', done.lastVersion)).data.id, done.lastVersion);
    const content = await alice.orgs.getLatestOpenApiSpecVersionContent(S.org, 'petstore');
    assert.equal(content.data.filesystem['openapi.yaml'].info.title, 'Today Petstore');
    const byId = await alice.orgs.getOpenApiSpecVersionContentById(S.org, 'petstore', done.lastVersion);
    assert.ok(byId.data.url.startsWith(`${QUIRE_URL}/openapi/`));
    const put = await alice.orgs.createOrUpdateOpenApiSpecBySlug(S.org, 'other', { source: { text: PETSTORE } });
    assert.equal(put.data.slug, 'other');
    const vis = await alice.orgs.updateOpenApiSpecBySlug(S.org, 'other', { visibility: 'public' });
    assert.equal(vis.data.visibility, 'public');
    assert.deepEqual(ids((await alice.orgs.listOpenApiSpecs(S.org)).data.items).length, 2);
    assert.equal((await alice.orgs.deleteOpenApiSpecBySlug(S.org, 'other')).status, 204);
    await rejectsWith(404, alice.orgs.getOpenApiSpecBySlug(S.org, 'other'), 'a deleted specification');
});

step('SAML providers: create, read, list, update, logins, delete', async () => {
    need(S.org);
    const c = await alice.orgs.createOrganizationSamlProvider(S.org, {
        label: 'Okta', entityID: 'https://idp.example.com/metadata', certificate: IDP_CERT, ssoURL: 'https://idp.example.com/sso',
    });
    assert.equal(c.status, 201);
    const id = c.data.id;
    assert.equal((await alice.orgs.getOrganizationSamlProviderById(S.org, id)).data.label, 'Okta');
    assert.deepEqual(ids((await alice.orgs.listSamlProvidersInOrganizationById(S.org)).data.items), [id]);
    const u = await alice.orgs.updateOrganizationSamlProvider(S.org, id, { label: 'Okta EU' });
    assert.equal(u.data.label, 'Okta EU');
    const logins = await anonymous.orgs.listSsoProviderLoginsInOrganization(S.org);
    assert.deepEqual(logins.data.items.map((l) => l.label), ['Okta EU']);
    assert.equal((await alice.orgs.deleteOrganizationSamlProvider(S.org, id)).status, 204);
    assert.equal((await alice.orgs.listSamlProvidersInOrganizationById(S.org)).data.items.length, 0);
});

step('translations: create, read, list, update, run, delete', async () => {
    need(S.org, S.space);
    const c = await alice.orgs.createTranslation(S.org, { language: 'fr', source: { space: S.space, language: 'en' }, instructions: BOTH_KINDS });
    assert.equal(c.status, 201);
    assert.deepEqual(c.data.instructions, BOTH_KINDS, 'the instructions are answered as sent');
    const id = c.data.id;
    assert.equal((await alice.orgs.getTranslation(S.org, id)).data.language, 'fr');
    assert.deepEqual(ids((await alice.orgs.listTranslations(S.org)).data.items), [id]);
    const text = (t) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
    const instructions = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('Keep product names.')] }] };
    assert.deepEqual((await alice.orgs.updateTranslation(S.org, id, { instructions: BOTH_KINDS })).data.instructions, BOTH_KINDS);
    const u = await alice.orgs.updateTranslation(S.org, id, { instructions });
    assert.ok(JSON.stringify(u.data.instructions).includes('Keep product names.'));
    assert.equal((await alice.orgs.runTranslation(S.org, id)).status, 204);
    const t = await eventually(async () => {
        const x = (await alice.orgs.getTranslation(S.org, id)).data;
        return x.status === 'completed' || x.status === 'failed' ? x : null;
    }, 'the translation run');
    assert.equal(t.status, 'completed');
    assert.equal(t.stats.runs, 1);
    assert.equal((await alice.orgs.deleteTranslation(S.org, id)).status, 204);
    await rejectsWith(404, alice.orgs.getTranslation(S.org, id), 'a deleted translation');
});

step('translations glossary: a batch, the list by a language, one entry', async () => {
    need(S.org);
    assert.equal((await alice.orgs.updateGlossaryEntries(S.org, { operations: [
        { type: 'insert', translations: { en: 'Handbook', fr: 'Manuel' } },
    ] })).status, 204);
    const list = (await alice.orgs.listGlossaryEntries(S.org, { orderBy: 'en' })).data;
    assert.equal(list.items.length, 1);
    const e = (await alice.orgs.getGlossaryEntry(S.org, list.items[0].id)).data;
    assert.deepEqual(e.translations, { en: 'Handbook', fr: 'Manuel' });
    assert.equal((await alice.orgs.updateGlossaryEntries(S.org, { operations: [{ type: 'delete', id: e.id }] })).status, 204);
    await rejectsWith(404, alice.orgs.getGlossaryEntry(S.org, e.id), 'a deleted entry');
});

// ---------------------------------------------------------------------------------------------
// Integrations

const NAME = `today-${RUN}`;

step('integrations: publish with a content security policy, read, list', async () => {
    need(S.org);
    const body = {
        organization: S.org, title: 'Today', description: 'Posts updates', script: 'export default {}',
        scopes: ['space:content:read'], configurations: { space: { properties: { channel: { type: 'string' } } } },
        contentSecurityPolicy: { 'default-src': "'self'", 'img-src': "'self' https://img.example" },
    };
    const p = await alice.integrations.publishIntegration(NAME, body);
    assert.equal(p.status, 200);
    assert.equal(p.data.version, 1);
    assert.deepEqual(p.data.contentSecurityPolicy, body.contentSecurityPolicy);
    const got = await bob.integrations.getIntegrationByName(NAME);
    assert.deepEqual(got.data.contentSecurityPolicy, body.contentSecurityPolicy);
    assert.equal(got.data.permissions.admin, false);
    const list = await alice.integrations.listIntegrations();
    assert.ok(list.data.items.some((i) => i.name === NAME));
});

step('integrations: install on the organization, a space and a site; configure; token; events', async () => {
    need(S.org, S.space, S.site);
    const inst = await alice.integrations.installIntegration(NAME, { organization: S.org });
    assert.equal(inst.status, 201);
    S.inst = inst.data.id;
    assert.equal((await alice.integrations.getIntegrationInstallationById(NAME, S.inst)).data.id, S.inst);
    const upd = await alice.integrations.updateIntegrationInstallation(NAME, S.inst, { externalIds: ['ext-1'] });
    assert.deepEqual(upd.data.externalIds, ['ext-1']);
    assert.deepEqual(ids((await alice.integrations.listIntegrationInstallations(NAME)).data.items), [S.inst]);
    assert.ok((await alice.orgs.listOrganizationInstallations(S.org)).data.items.some((i) => i.installation.id === S.inst));

    const sp = await alice.integrations.installIntegrationOnSpace(NAME, S.inst, { space: S.space });
    assert.equal(sp.data.space, S.space);
    const st = await alice.integrations.installIntegrationOnSite(NAME, S.inst, { siteId: S.site });
    assert.equal(st.data.site, S.site);
    assert.equal((await alice.integrations.listIntegrationSpaceInstallations(NAME)).data.items.length, 1);
    assert.equal((await alice.integrations.listIntegrationSiteInstallations(NAME)).data.items.length, 1);
    assert.equal((await alice.integrations.listIntegrationInstallationSpaces(NAME, S.inst)).data.items.length, 1);
    assert.equal((await alice.integrations.listIntegrationInstallationSites(NAME, S.inst)).data.items.length, 1);
    const cfg = await alice.integrations.updateIntegrationSpaceInstallation(NAME, S.inst, S.space, { configuration: { channel: 'general' } });
    assert.deepEqual(cfg.data.configuration, { channel: 'general' });
    assert.deepEqual((await alice.integrations.getIntegrationSpaceInstallation(NAME, S.inst, S.space)).data.configuration, { channel: 'general' });
    const scfg = await alice.integrations.updateIntegrationSiteInstallation(NAME, S.inst, S.site, { externalIds: ['site-1'] });
    assert.deepEqual(scfg.data.externalIds, ['site-1']);
    assert.deepEqual((await alice.integrations.getIntegrationSiteInstallation(NAME, S.inst, S.site)).data.externalIds, ['site-1']);

    const tok = await alice.integrations.createIntegrationInstallationToken(NAME, S.inst);
    assert.equal(typeof tok.data.token, 'string');
    const asInst = client(tok.data.token, { latest: true });
    assert.ok((await asInst.spaces.listPages(S.space)).data.pages.length > 0, 'the token reads the space\'s content');
    await rejectsWith(403, asInst.spaces.getSpaceById(S.space), 'a scope the integration lacks');

    // The events are delivered by a job: wait for the first one.
    const events = await eventually(async () => {
        const r = await alice.integrations.listIntegrationEvents(NAME);
        return r.data.items.length > 0 ? r : null;
    }, 'the installation\'s events');
    const ev = await alice.integrations.getIntegrationEvent(NAME, events.data.items[0].id);
    assert.equal(ev.data.event.id, events.data.items[0].id);
});

step('integrations: development mode, uninstall, unpublish', async () => {
    need(S.inst);
    assert.equal((await alice.integrations.setIntegrationDevelopmentMode(NAME, { tunnelUrl: 'https://tunnel.example.com/x' })).status, 204);
    assert.equal((await alice.integrations.disableIntegrationDevelopmentMode(NAME)).status, 205);
    assert.equal((await alice.integrations.uninstallIntegrationFromSpace(NAME, S.inst, S.space)).status, 205);
    assert.equal((await alice.integrations.uninstallIntegrationFromSite(NAME, S.inst, S.site)).status, 205);
    assert.equal((await alice.integrations.listIntegrationInstallationSpaces(NAME, S.inst)).data.items.length, 0);
    assert.equal((await alice.integrations.uninstallIntegration(NAME, S.inst)).status, 205);
    assert.equal((await alice.integrations.listIntegrationInstallations(NAME)).data.items.length, 0);
    assert.equal((await alice.integrations.unpublishIntegration(NAME)).status, 204);
    await rejectsWith(404, alice.integrations.getIntegrationByName(NAME), 'an unpublished integration');
});

// ---------------------------------------------------------------------------------------------
// Leaving: a member removed, the organization's collection deleted

step('permissions: spaces, collections and sites for users and teams; a null default level', async () => {
    need(S.org, S.collection, BOB_ID);
    // Bob is an editor of the organization; a space and a site whose default level is null are
    // closed to him until he or his team is granted a role.
    const sp = await alice.orgs.createSpace(S.org, { title: 'Closed', empty: true });
    await alice.spaces.updateSpaceById(sp.data.id, { defaultLevel: null });
    await rejectsWith(404, bob.spaces.getSpaceById(sp.data.id), 'a space closed by a null default level');
    const team = await alice.orgs.createOrganizationTeam(S.org, { title: 'Granted', members: [BOB_ID] });
    const site = await alice.orgs.createSite(S.org, { title: 'Closed site' });
    await alice.orgs.updateSiteById(S.org, site.data.id, { defaultLevel: null });
    await rejectsWith(404, bob.orgs.getSiteById(S.org, site.data.id), 'a site closed by a null default level');

    const targets = [
        { kind: 'space', api: alice.spaces, id: sp.data.id, args: [sp.data.id], read: () => bob.spaces.getSpaceById(sp.data.id) },
        { kind: 'collection', api: alice.collections, id: S.collection, args: [S.collection], read: () => bob.collections.getCollectionById(S.collection) },
        { kind: 'site', api: alice.orgs, id: site.data.id, args: [S.org, site.data.id], read: () => bob.orgs.getSiteById(S.org, site.data.id) },
    ];
    for (const t of targets) {
        const K = t.kind[0].toUpperCase() + t.kind.slice(1);
        const call = (name, ...rest) => t.api[name](...t.args, ...rest);
        assert.equal((await call(`inviteTo${K}`, { role: 'read', teams: [team.data.id] })).status, 204);
        assert.equal((await t.read()).status, 200, `the team's grant opens the ${t.kind}`);
        assert.equal((await call(`inviteTo${K}`, { role: 'comment', users: [BOB_ID] })).status, 204);
        assert.equal((await call(`updateUserPermissionIn${K}`, BOB_ID, { role: 'edit' })).status, 204);
        assert.equal((await call(`updateTeamPermissionIn${K}`, team.data.id, { role: 'comment' })).status, 204);
        const users = await call(`listUserPermissionsIn${K}`);
        checkList(users.data, () => {}, `${t.kind} user permissions`);
        assert.deepEqual(users.data.items.map((u) => [u.user.id, u.permission]), [[BOB_ID, 'edit']]);
        const teams = await call(`listTeamPermissionsIn${K}`);
        assert.deepEqual(teams.data.items.map((u) => [u.team.id, u.permission]), [[team.data.id, 'comment']]);
        const all = await call(`listPermissionsAggregateIn${K}`);
        const bobs = all.data.items.find((u) => u.user.id === BOB_ID);
        assert.equal(bobs?.permission, 'edit', `Bob's role on the ${t.kind}`);
        assert.equal((await call(`removeUserFrom${K}`, BOB_ID)).status, 205);
        assert.equal((await call(`removeUserFrom${K}`, BOB_ID)).status, 204);
        assert.equal((await call(`removeTeamFrom${K}`, team.data.id)).status, 205);
        if (t.kind !== 'collection') await rejectsWith(404, t.read(), `the ${t.kind} once its grants are removed`);
        await rejectsWith(404, call(`inviteTo${K}`, { role: 'read', users: ['noSuchUser0000000000'] }), 'a user who is not a member');
    }
    const filtered = await alice.orgs.listPermissionsAggregateInSite(S.org, site.data.id, { role: 'admin', sort: 'name', order: 'asc' });
    assert.deepEqual(filtered.data.items.map((u) => [u.user.id, u.origin.type]), [[S.aliceId, 'organization']]);
    const spaceAdmins = await alice.spaces.listPermissionsAggregateInSpace(sp.data.id, { role: 'admin' });
    assert.deepEqual(spaceAdmins.data.items.map((u) => u.user.id), [S.aliceId]);
    const colAll = await alice.collections.listPermissionsAggregateInCollection(S.collection);
    assert.ok(colAll.data.items.some((u) => u.user.id === BOB_ID), 'members read a collection whose level is inherit');
    await alice.orgs.removeTeamFromOrganizationById(S.org, team.data.id);
});

step('reviews: ask, review, list; merge rules on reviews; contributors', async () => {
    need(S.org, S.aliceId);
    const sp = await alice.orgs.createSpace(S.org, { title: 'Reviewed', empty: true });
    const space = sp.data.id;
    await alice.spaces.updateSpaceById(space, { mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] } });
    const cr = (await bob.spaces.createChangeRequest(space, { subject: 'Needs a review' })).data.id;
    const asked = await bob.spaces.requestReviewersForChangeRequest(space, cr, { users: [S.aliceId], subject: 'Ready for review' });
    assert.equal(asked.status, 200);
    assert.equal(asked.data.users[0].user.id, S.aliceId);
    assert.equal(asked.data.users[0].requestedBy.id, BOB_ID);
    const requested = await alice.spaces.getRequestedReviewersByChangeRequestId(space, cr);
    checkList(requested.data, (r, w) => assert.equal(r.object, 'change-request-requested-reviewer', w), 'requested reviewers');
    await rejectsWith(409, bob.spaces.mergeChangeRequest(space, cr), 'no approved review');
    await rejectsWith(403, bob.spaces.submitChangeRequestReview(space, cr, { status: 'approved' }), 'an editor reviews');
    const mine = (await alice.spaces.createChangeRequest(space, { subject: 'Mine' })).data.id;
    await rejectsWith(400, alice.spaces.submitChangeRequestReview(space, mine, { status: 'approved' }), 'a self-review');
    const review = await alice.spaces.submitChangeRequestReview(space, cr, { status: 'approved', comment: { markdown: 'Looks good.' } });
    assert.equal(review.status, 201);
    assert.equal(review.data.requestedBy.id, BOB_ID);
    assert.equal(review.data.comment.body.markdown, 'Looks good.');
    const reviews = await bob.spaces.getReviewsByChangeRequestId(space, cr, { outdated: false });
    assert.deepEqual(ids(reviews.data.items), [review.data.id]);
    const one = await bob.spaces.getChangeRequestReviewById(space, cr, review.data.id, { format: 'document' });
    assert.equal(one.data.outdated, false);
    assert.equal(one.data.comment.body.document.object, 'document');
    const contributors = await bob.spaces.getContributorsByChangeRequestId(space, cr);
    assert.ok(contributors.data.items.some((c) => c.user.id === S.aliceId && c.actionType === 'comment'));
    const merged = await bob.spaces.mergeChangeRequest(space, cr);
    assert.equal(merged.data.result, 'merge');
    await rejectsWith(409, alice.spaces.submitChangeRequestReview(space, cr, { status: 'approved' }), 'a review of a merged change request');

    const other = (await bob.spaces.createChangeRequest(space, { subject: 'Asked, then not' })).data.id;
    await bob.spaces.requestReviewersForChangeRequest(space, other, { users: [S.aliceId] });
    assert.equal((await bob.spaces.removeRequestedReviewerFromChangeRequest(space, other, S.aliceId)).status, 205);
    assert.equal((await bob.spaces.removeRequestedReviewerFromChangeRequest(space, other, S.aliceId)).status, 204);
});

step('computed content: pages and a document computed from an OpenAPI specification', async () => {
    need(S.org);
    const text = 'openapi: 3.0.3\ninfo: { title: Today, version: "1" }\npaths:\n  /things:\n    get:\n      tags: [things]\n      responses: { "200": { description: ok } }\n';
    await alice.orgs.createOpenApiSpec(S.org, { slug: `today-${RUN}`.toLowerCase(), source: { text } });
    let spec;
    for (let i = 0; i < 600 && spec?.processingState !== 'complete'; i++) {
        if (i) await new Promise((r) => setTimeout(r, 100));
        spec = (await alice.orgs.getOpenApiSpecBySlug(S.org, `today-${RUN}`.toLowerCase())).data;
    }
    assert.equal(spec.processingState, 'complete');
    const sp = await alice.orgs.createSpace(S.org, { title: 'Computed', empty: true });
    const source = (props) => ({ type: 'builtin:openapi', props, dependencies: { spec: { ref: { kind: 'openapi', spec: spec.slug } } } });
    const rev = await alice.spaces.getComputedRevision(sp.data.id, { source: source({ models: false }), seed: 'today' });
    assert.deepEqual(rev.data.pages.map((p) => p.title), ['things']);
    const doc = await alice.spaces.getComputedDocument(sp.data.id, { source: source({ doc: 'tag', page: 'things' }), seed: 'today' });
    assert.equal(doc.data.nodes.at(-1).type, 'openapi-operation');
});

step('removeMemberFromOrganizationById and deleteCollectionById', async () => {
    need(S.org, S.collection);
    const empty = await alice.orgs.createCollection(S.org, { title: 'Empty' });
    assert.equal((await alice.collections.deleteCollectionById(empty.data.id)).status, 204);
    await rejectsWith(404, alice.collections.getCollectionById(empty.data.id), 'a deleted collection');
    assert.equal((await alice.orgs.removeMemberFromOrganizationById(S.org, BOB_ID)).status, 204);
    await rejectsWith(404, bob.orgs.getOrganizationById(S.org), 'a removed member');
});

kit.finish();
