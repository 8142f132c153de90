// Integrations, the rest of an installation's life (issue 13's gap), through GitBook's current
// client (0.202.0): the organization's installations, one installation's space and site
// installations read, configured and removed, and uninstalling, after which the installation's
// token answers 401. The events each change records are read back.
import assert from 'node:assert/strict';
import { suiteKit, need, rejectsWith, checkList, ALICE_TOKEN, BOB_TOKEN } from './kit.mjs';

const OPERATIONS = [
    'listOrganizationInstallations', 'listIntegrationInstallationSpaces', 'getIntegrationSpaceInstallation',
    'updateIntegrationSpaceInstallation', 'uninstallIntegrationFromSpace', 'listIntegrationInstallationSites',
    'getIntegrationSiteInstallation', 'updateIntegrationSiteInstallation', 'uninstallIntegrationFromSite',
    'uninstallIntegration',
];
const kit = suiteKit({ operations: OPERATIONS, latestOnly: OPERATIONS });
const { step, raw, client } = kit;
const alice = client(ALICE_TOKEN, { latest: true });
const bob = client(BOB_TOKEN, { latest: true });

// Names are global: one of this run's own.
const NAME = `compat-lifecycle-${Date.now().toString(36)}`;
const S = {};
const channel = () => ({ properties: { channel: { type: 'string', enum: ['general', 'random'] } }, required: ['channel'] });

async function latestEvent() {
    const { data } = await alice.integrations.listIntegrationEvents(NAME, { limit: 1 });
    return data.items[0].payload;
}

step('setup: an organization with a space and a site, an integration installed on all three', async () => {
    Object.assign(S, await kit.orgWithSpaceAndSite(ALICE_TOKEN, 'Lifecycle Co'));
    await alice.integrations.publishIntegration(NAME, {
        organization: S.org, title: 'Lifecycle', description: 'Follows its installations', script: 'export default {}',
        scopes: ['space:content:read'], configurations: { account: channel(), space: channel(), site: channel() },
    });
    const { data: n } = await alice.integrations.installIntegration(NAME, { organization: S.org });
    S.installation = n.id;
    await alice.integrations.installIntegrationOnSpace(NAME, n.id, { space: S.space });
    await alice.integrations.installIntegrationOnSite(NAME, n.id, { siteId: S.site });
});

step('listOrganizationInstallations: each installation with its integration', async () => {
    need(S.installation);
    const { data } = await alice.orgs.listOrganizationInstallations(S.org, { limit: 10 });
    const items = checkList(data, (it, where) => {
        assert.equal(typeof it.installation.id, 'string', where);
        assert.equal(it.integration.object, 'integration', where);
    }, 'listOrganizationInstallations');
    assert.deepEqual(items.map((it) => [it.installation.id, it.integration.name]), [[S.installation, NAME]]);
    const { data: none } = await alice.orgs.listOrganizationInstallations(S.org, { search: 'no-such-integration' });
    assert.equal(none.count, 0);
    await rejectsWith(404, bob.orgs.listOrganizationInstallations(S.org), 'bob listing alice\'s organization');
});

step('the space installations of one installation: list, read, configure', async () => {
    need(S.installation, S.space);
    const { data: list } = await alice.integrations.listIntegrationInstallationSpaces(NAME, S.installation, { extended: true });
    const items = checkList(list, () => {}, 'listIntegrationInstallationSpaces');
    assert.deepEqual(items.map((i) => i.space.id), [S.space]);
    const { data: one } = await alice.integrations.getIntegrationSpaceInstallation(NAME, S.installation, S.space);
    assert.equal(one.space, S.space);
    assert.equal(one.status, 'pending', 'the space schema needs a channel');
    const bad = await raw('updateIntegrationSpaceInstallation', ALICE_TOKEN, 'PATCH',
        `/integrations/${NAME}/installations/${S.installation}/spaces/${S.space}`, { configuration: { colour: 'red' } });
    assert.equal(bad.status, 400);
    assert.match(bad.data.error.message, /configuration\.colour/);
    const { data: upd } = await alice.integrations.updateIntegrationSpaceInstallation(NAME, S.installation, S.space,
        { configuration: { channel: 'general' }, externalIds: ['chan-1'] });
    assert.equal(upd.status, 'active');
    assert.deepEqual(upd.externalIds, ['chan-1']);
    const ev = await latestEvent();
    assert.equal(ev.type, 'space_installation_setup');
    assert.equal(ev.previous.status, 'pending');
    await rejectsWith(404, bob.integrations.getIntegrationSpaceInstallation(NAME, S.installation, S.space), 'bob reading it');
});

step('the site installations of one installation: list, read, configure', async () => {
    need(S.installation, S.site);
    const { data: list } = await alice.integrations.listIntegrationInstallationSites(NAME, S.installation);
    assert.deepEqual(checkList(list, () => {}, 'listIntegrationInstallationSites').map((i) => i.site), [S.site]);
    const { data: one } = await alice.integrations.getIntegrationSiteInstallation(NAME, S.installation, S.site, { extended: true });
    assert.equal(one.site.id, S.site);
    const { data: upd } = await alice.integrations.updateIntegrationSiteInstallation(NAME, S.installation, S.site,
        { configuration: { channel: 'random' } });
    assert.equal(upd.status, 'active');
    await rejectsWith(404, bob.integrations.updateIntegrationSiteInstallation(NAME, S.installation, S.site, { externalIds: ['x'] }), 'bob configuring it');
});

step('uninstallIntegrationFromSpace and uninstallIntegrationFromSite: 205, then 204', async () => {
    need(S.installation, S.space, S.site);
    await rejectsWith(404, bob.integrations.uninstallIntegrationFromSpace(NAME, S.installation, S.space), 'bob removing it');
    const first = await alice.integrations.uninstallIntegrationFromSpace(NAME, S.installation, S.space);
    assert.equal(first.status, 205);
    const again = await alice.integrations.uninstallIntegrationFromSpace(NAME, S.installation, S.space);
    assert.equal(again.status, 204);
    const ev = await latestEvent();
    assert.equal(ev.type, 'space_installation_deleted');
    assert.equal(ev.spaceId, S.space);
    assert.deepEqual(ev.previous.configuration, { channel: 'general' });
    const site = await alice.integrations.uninstallIntegrationFromSite(NAME, S.installation, S.site);
    assert.equal(site.status, 205);
    assert.equal((await latestEvent()).type, 'site_installation_deleted');
    await rejectsWith(404, alice.integrations.getIntegrationSpaceInstallation(NAME, S.installation, S.space), 'after removal');
});

step('uninstallIntegration: the installation and its token are gone', async () => {
    need(S.installation);
    const { data: tok } = await alice.integrations.createIntegrationInstallationToken(NAME, S.installation);
    const before = await raw(null, tok.token, 'GET', `/integrations/${NAME}/installations/${S.installation}`);
    assert.equal(before.status, 200, JSON.stringify(before.data));
    await rejectsWith(404, bob.integrations.uninstallIntegration(NAME, S.installation), 'bob uninstalling it');
    const res = await alice.integrations.uninstallIntegration(NAME, S.installation);
    assert.equal(res.status, 205);
    const after = await raw(null, tok.token, 'GET', `/integrations/${NAME}/installations/${S.installation}`);
    assert.equal(after.status, 401, 'the installation token still authenticates');
    const ev = await latestEvent();
    assert.equal(ev.type, 'installation_deleted');
    assert.equal(ev.installationId, S.installation);
    const again = await alice.integrations.uninstallIntegration(NAME, S.installation);
    assert.equal(again.status, 204);
    const { data } = await alice.orgs.listOrganizationInstallations(S.org);
    assert.equal(data.count, 0);
    await alice.integrations.unpublishIntegration(NAME);
});

kit.finish();
