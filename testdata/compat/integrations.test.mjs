// Integrations (issue 13) through GitBook's client: publish, read and list, install on the
// organization and on a space and a site, the installation's configuration, its events, an
// installation token limited to its scopes, development mode, and unpublishing.
import assert from 'node:assert/strict';
import { suiteKit, need, rejectsWith, checkList, ALICE_TOKEN, BOB_TOKEN } from './kit.mjs';

const OPERATIONS = [
    'listIntegrations', 'getIntegrationByName', 'publishIntegration', 'unpublishIntegration',
    'listIntegrationInstallations', 'installIntegration', 'updateIntegrationInstallation',
    'listIntegrationEvents', 'getIntegrationEvent', 'listIntegrationSpaceInstallations',
    'listIntegrationSiteInstallations', 'setIntegrationDevelopmentMode',
    'installIntegrationOnSpace', 'installIntegrationOnSite', 'createIntegrationInstallationToken',
    'getIntegrationInstallationById', 'disableIntegrationDevelopmentMode',
];
const LATEST = ['installIntegrationOnSpace', 'installIntegrationOnSite', 'createIntegrationInstallationToken'];
const kit = suiteKit({ operations: OPERATIONS, latestOnly: LATEST });
const { alice, bob, step, raw, client } = kit;
const latest = client(ALICE_TOKEN, { latest: true });

// Names are global: one of this run's own.
const NAME = `compat-notify-${Date.now().toString(36)}`;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const S = {};

function checkIntegration(i, where) {
    assert.equal(i.object, 'integration', where);
    assert.equal(typeof i.name, 'string', where);
    assert.equal(typeof i.version, 'number', where);
    assert.ok(Array.isArray(i.scopes) && Array.isArray(i.previewImages), where);
    assert.equal(typeof i.urls.location, 'string', where);
    assert.ok(!('secrets' in i), `${where}: secrets answered`);
}

step('setup: an organization with a space and a site', async () => {
    Object.assign(S, await kit.orgWithSpaceAndSite(ALICE_TOKEN, 'Integrations Co'));
});

step('publishIntegration: version 1, then 2', async () => {
    need(S.org);
    const body = {
        organization: S.org, title: 'Notify', description: 'Posts updates', script: 'export default {}',
        scopes: ['space:content:read', 'space:content:write'], categories: ['collaboration'], icon: PNG,
        configurations: { account: { properties: { channel: { type: 'string', title: 'Channel' } }, required: ['channel'] } },
        secrets: { TOKEN: 'never-answered' },
    };
    const { data: v1 } = await alice.integrations.publishIntegration(NAME, body);
    checkIntegration(v1, 'published');
    assert.equal(v1.version, 1);
    assert.equal(v1.permissions.admin, true);
    assert.ok(v1.urls.icon, 'the icon has a URL');
    const { data: v2 } = await alice.integrations.publishIntegration(NAME, body);
    assert.equal(v2.version, 2);
    assert.ok(!JSON.stringify(v2).includes('never-answered'), 'a secret was answered');
    await rejectsWith(404, bob.integrations.publishIntegration(`${NAME}-bob`, body), 'publishing in an organization bob is not in');
});

step('publishIntegration: a component-configured level and a policy by directive (0.202.0), answered as given', async () => {
    need(S.org);
    const body = {
        organization: S.org, title: 'Kit', description: 'Configured by a component', script: 'export default {}',
        scopes: ['space:content:read'], configurations: { space: { componentId: 'space-settings' } },
        contentSecurityPolicy: { 'default-src': "'self'", 'script-src': "'self' https://cdn.example" },
    };
    const { data } = await alice.integrations.publishIntegration(`${NAME}-kit`, body);
    checkIntegration(data, 'published with a component');
    assert.deepEqual(data.configurations.space, { componentId: 'space-settings' });
    assert.deepEqual(data.contentSecurityPolicy, body.contentSecurityPolicy);
    await alice.integrations.unpublishIntegration(`${NAME}-kit`);
});

step('getIntegrationByName and listIntegrations', async () => {
    need(S.org);
    const { data } = await bob.integrations.getIntegrationByName(NAME);
    checkIntegration(data, 'get');
    assert.equal(data.permissions.admin, false);
    await rejectsWith(404, alice.integrations.getIntegrationByName(`${NAME}-nope`), 'unknown name');
    const { data: list } = await alice.integrations.listIntegrations({ owner: S.org, category: 'collaboration', limit: 10 });
    const items = checkList(list, checkIntegration, 'listIntegrations');
    assert.deepEqual(items.map((i) => i.name), [NAME]);
    const { data: none } = await alice.integrations.listIntegrations({ owner: S.org, scope: 'site:metadata:read' });
    assert.equal(none.count, 0);
});

step('installIntegration, then its configuration', async () => {
    need(S.org);
    const { data: n } = await alice.integrations.installIntegration(NAME, { organization: S.org });
    assert.equal(n.status, 'pending', 'a required property has no value yet');
    assert.equal(n.target.organization, S.org);
    S.installation = n.id;
    const bad = await raw('updateIntegrationInstallation', ALICE_TOKEN, 'PATCH',
        `/integrations/${NAME}/installations/${n.id}`, { configuration: { colour: 'red' } });
    assert.equal(bad.status, 400);
    assert.match(bad.data.error.message, /configuration\.colour/);
    const { data: upd } = await alice.integrations.updateIntegrationInstallation(NAME, n.id,
        { configuration: { channel: 'general' }, externalIds: ['team-1'] });
    assert.equal(upd.status, 'active');
    const { data: list } = await alice.integrations.listIntegrationInstallations(NAME, { externalId: 'team-1' });
    assert.deepEqual(list.items.map((i) => i.id), [n.id]);
    const { data: one } = await alice.integrations.getIntegrationInstallationById(NAME, n.id);
    assert.equal(one.id, n.id);
    assert.deepEqual(one.externalIds, ['team-1']);
    await rejectsWith(404, bob.integrations.getIntegrationInstallationById(NAME, n.id), 'bob reading alice\'s installation');
    await rejectsWith(404, bob.integrations.installIntegration(NAME, { organization: S.org }), 'bob installing on alice\'s organization');
});

step('installIntegrationOnSpace and installIntegrationOnSite (0.202.0 client), and their lists', async () => {
    need(S.installation, S.space, S.site);
    const { data: si } = await latest.integrations.installIntegrationOnSpace(NAME, S.installation, { space: S.space });
    assert.equal(si.space, S.space);
    const { data: st } = await latest.integrations.installIntegrationOnSite(NAME, S.installation, { siteId: S.site });
    assert.equal(st.site, S.site);
    const { data: spaces } = await alice.integrations.listIntegrationSpaceInstallations(NAME, { extended: true });
    assert.equal(spaces.items[0].space.id, S.space);
    const { data: sites } = await alice.integrations.listIntegrationSiteInstallations(NAME);
    assert.deepEqual(sites.items.map((i) => i.site), [S.site]);
});

step('listIntegrationEvents and getIntegrationEvent', async () => {
    need(S.installation);
    const { data } = await alice.integrations.listIntegrationEvents(NAME);
    assert.equal(data.count, 4);
    assert.equal(data.items[3].payload.type, 'installation_setup');
    const { data: one } = await alice.integrations.getIntegrationEvent(NAME, data.items[1].id);
    assert.equal(one.event.id, data.items[1].id);
    assert.ok(one.trace.logs.length >= 1);
    await rejectsWith(403, bob.integrations.listIntegrationEvents(NAME), 'events to a non-admin');
});

step('createIntegrationInstallationToken: the token reaches its scope only', async () => {
    need(S.installation, S.space);
    const { data } = await latest.integrations.createIntegrationInstallationToken(NAME, S.installation);
    const pages = await raw(null, data.token, 'GET', `/spaces/${S.space}/content/pages`);
    assert.equal(pages.status, 200, JSON.stringify(pages.data));
    const space = await raw(null, data.token, 'GET', `/spaces/${S.space}`);
    assert.equal(space.status, 403, 'space metadata is outside space:content:read');
    const orgs = await raw(null, data.token, 'GET', `/orgs/${S.org}`);
    assert.equal(orgs.status, 403);
    // space:content:write: the installation opens a change request (as the user who installed it).
    const inst = client(data.token);
    const { data: cr } = await inst.spaces.createChangeRequest(S.space, { subject: 'From the integration' });
    assert.equal(cr.subject, 'From the integration');
    const { data: self } = await inst.integrations.getIntegrationInstallationById(NAME, S.installation);
    assert.equal(self.id, S.installation);
    const meta = await raw(null, data.token, 'PATCH', `/spaces/${S.space}`, { title: 'Renamed' });
    assert.equal(meta.status, 403, 'space metadata writes need space:metadata:write');
});

step('setIntegrationDevelopmentMode and unpublishIntegration', async () => {
    need(S.org);
    await alice.integrations.setIntegrationDevelopmentMode(NAME, { tunnelUrl: 'https://tunnel.example.com/events', all: false });
    await rejectsWith(403, bob.integrations.setIntegrationDevelopmentMode(NAME, { tunnelUrl: 'https://x.example.com' }), 'bob');
    await rejectsWith(403, bob.integrations.disableIntegrationDevelopmentMode(NAME), 'bob disabling');
    const off = await alice.integrations.disableIntegrationDevelopmentMode(NAME);
    assert.equal(off.status, 205);
    await alice.integrations.unpublishIntegration(NAME);
    await rejectsWith(404, alice.integrations.getIntegrationByName(NAME), 'after unpublishing');
    void BOB_TOKEN;
});

kit.finish();
