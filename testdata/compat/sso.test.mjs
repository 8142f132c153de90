// SSO (issue 14): the six operations of seed §4.4 through @gitbook/api 0.146.0, and
// setUserAsSSOMemberForOrganization now that providers exist. The login itself (a signed
// Response posted to the ACS URL) is checked end to end by the Go tests against an in-process
// identity provider; here the start URL is followed one step, to the provider's ssoURL.
import assert from 'node:assert/strict';
import { suiteKit, need, rejectsWith, has, TIMESTAMP, ALICE_TOKEN, BOB_ID, QUIRE_URL } from './kit.mjs';

const kit = suiteKit({
    operations: [
        'listSAMLProvidersInOrganizationById', 'createOrganizationSAMLProvider', 'getOrganizationSAMLProviderById',
        'updateOrganizationSAMLProvider', 'deleteOrganizationSAMLProvider', 'listSSOProviderLoginsInOrganization',
        'setUserAsSSOMemberForOrganization',
    ],
    clientMethodToOperation: {
        listSamlProvidersInOrganizationById: 'listSAMLProvidersInOrganizationById',
        createOrganizationSamlProvider: 'createOrganizationSAMLProvider',
        getOrganizationSamlProviderById: 'getOrganizationSAMLProviderById',
        updateOrganizationSamlProvider: 'updateOrganizationSAMLProvider',
        deleteOrganizationSamlProvider: 'deleteOrganizationSAMLProvider',
        listSsoProviderLoginsInOrganization: 'listSSOProviderLoginsInOrganization',
        setUserAsSsoMemberForOrganization: 'setUserAsSSOMemberForOrganization',
    },
});
const { alice, bob, anonymous, step, raw } = kit;

// A self-signed certificate of a test identity provider (EC P-256, valid for 100 years).
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
// The same certificate as IdP consoles hand it out: the base64 body alone.
const IDP_CERT_BODY = IDP_CERT.split('\n').filter((l) => l && !l.startsWith('-----')).join('');

const S = {};

function checkProvider(p, where) {
    assert.equal(p.object, 'saml-provider', where);
    for (const k of ['id', 'label', 'ssoURL', 'entityID', 'certificate']) has(p, k, 'string', where);
    assert.match(p.createdAt, TIMESTAMP, `${where}.createdAt`);
    assert.equal(p.status, 'active', where);
    assert.ok('defaultRole' in p, `${where}: no defaultRole`);
    const base = `${QUIRE_URL}/sso/saml/${p.id}/`;
    assert.deepEqual(p.service, { acsURL: base + 'acs', startURL: base + 'start', entityID: base + 'metadata' }, where);
    assert.equal(p.urls.location, `${QUIRE_URL}/v1/orgs/${S.org}/saml/${p.id}`, where);
}

step('setup: an organization bob joins, with a team', async () => {
    const r = await raw('', ALICE_TOKEN, 'POST', '/orgs', { title: 'SSO Org' });
    assert.equal(r.status, 201);
    S.org = r.data.id;
    await alice.orgs.updateOrganizationById(S.org, { emailDomains: ['example.com'] });
    await bob.orgs.joinOrganization(S.org);
    const team = await alice.orgs.createOrganizationTeam(S.org, { title: 'Signed in' });
    S.team = team.data.id;
});

step('createOrganizationSAMLProvider: 201 with quire\'s service URLs, default team and role', async () => {
    need(S.org, S.team);
    const r = await alice.orgs.createOrganizationSamlProvider(S.org, {
        label: 'Okta', entityID: 'https://idp.example.com/metadata', certificate: IDP_CERT,
        ssoURL: 'https://idp.example.com/sso', defaultTeam: S.team, defaultRole: 'edit',
    });
    assert.equal(r.status, 201);
    S.provider = r.data.id;
    checkProvider(r.data, 'created');
    assert.equal(r.data.label, 'Okta');
    assert.equal(r.data.defaultRole, 'edit');
    assert.equal(r.data.defaultTeam.id, S.team);
    const org = await alice.orgs.getOrganizationById(S.org);
    assert.equal(org.data.sso, true, 'an organization with a provider has its sso flag on');
});

step('createOrganizationSAMLProvider: bad input answers 400 naming the field, a member 403', async () => {
    need(S.provider);
    const body = { label: 'Second', entityID: 'https://idp2.example.com/', certificate: IDP_CERT_BODY, ssoURL: 'https://idp2.example.com/sso' };
    const bad = [
        [{ ...body, label: '' }, 'label'],
        [{ ...body, label: 'x'.repeat(31) }, 'label'],
        [{ ...body, entityID: 'e'.repeat(1025) }, 'entityID'],
        [{ ...body, certificate: 'not a certificate' }, 'certificate'],
        [{ ...body, ssoURL: '/relative' }, 'ssoURL'],
        [{ ...body, defaultRole: 'owner' }, 'defaultRole'],
        [{ ...body, defaultTeam: 'noSuchTeam0000000000' }, 'defaultTeam'],
    ];
    for (const [b, field] of bad) {
        const err = await rejectsWith(400, alice.orgs.createOrganizationSamlProvider(S.org, b), `create with bad ${field}`);
        assert.match(err.errorMessage, new RegExp(field), `the message names ${field}: ${err.errorMessage}`);
    }
    await rejectsWith(403, bob.orgs.createOrganizationSamlProvider(S.org, body), 'a read member creates a provider');
    // The bare base64 body is accepted as IdPs hand it out.
    const r = await alice.orgs.createOrganizationSamlProvider(S.org, body);
    assert.equal(r.status, 201);
    checkProvider(r.data, 'second');
    S.second = r.data.id;
});

step('getOrganizationSAMLProviderById and listSAMLProvidersInOrganizationById', async () => {
    need(S.provider, S.second);
    const g = await alice.orgs.getOrganizationSamlProviderById(S.org, S.provider);
    assert.equal(g.status, 200);
    checkProvider(g.data, 'got');
    assert.equal(g.data.certificate, IDP_CERT);
    const page1 = await alice.orgs.listSamlProvidersInOrganizationById(S.org, { limit: 1 });
    assert.equal(page1.data.count, 2);
    assert.deepEqual(page1.data.items.map((p) => p.id), [S.provider]);
    const page2 = await alice.orgs.listSamlProvidersInOrganizationById(S.org, { limit: 1, page: page1.data.next.page });
    assert.deepEqual(page2.data.items.map((p) => p.id), [S.second]);
    page2.data.items.forEach((p) => checkProvider(p, 'listed'));
    await rejectsWith(403, bob.orgs.getOrganizationSamlProviderById(S.org, S.provider), 'a read member reads a provider');
    await rejectsWith(404, alice.orgs.getOrganizationSamlProviderById(S.org, 'noSuchProvider000000'), 'an unknown provider');
});

step('updateOrganizationSAMLProvider: fields change and persist; defaultRole null makes guests', async () => {
    need(S.provider);
    const r = await alice.orgs.updateOrganizationSamlProvider(S.org, S.provider, { label: 'Okta EU', defaultRole: null });
    assert.equal(r.status, 200);
    checkProvider(r.data, 'updated');
    assert.equal(r.data.label, 'Okta EU');
    assert.equal(r.data.defaultRole, null);
    assert.equal(r.data.defaultTeam.id, S.team);
    const again = await alice.orgs.getOrganizationSamlProviderById(S.org, S.provider);
    assert.equal(again.data.label, 'Okta EU');
    const err = await rejectsWith(400, alice.orgs.updateOrganizationSamlProvider(S.org, S.provider, { certificate: 'AAAA' }), 'bad certificate');
    assert.match(err.errorMessage, /certificate/);
    await rejectsWith(403, bob.orgs.updateOrganizationSamlProvider(S.org, S.provider, { label: 'Bob' }), 'a read member updates');
});

step('listSSOProviderLoginsInOrganization: {id, label, startURL} of each provider, without a token', async () => {
    need(S.provider, S.second);
    const r = await anonymous.orgs.listSsoProviderLoginsInOrganization(S.org);
    assert.equal(r.status, 200);
    assert.deepEqual(r.data.items, [
        { id: S.provider, label: 'Okta EU', startURL: `${QUIRE_URL}/sso/saml/${S.provider}/start` },
        { id: S.second, label: 'Second', startURL: `${QUIRE_URL}/sso/saml/${S.second}/start` },
    ]);
});

step('the start URL sends the browser to the provider with a signed AuthnRequest', async () => {
    need(S.provider);
    const res = await fetch(`${QUIRE_URL}/sso/saml/${S.provider}/start`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    const loc = new URL(res.headers.get('location'));
    assert.equal(loc.origin + loc.pathname, 'https://idp.example.com/sso');
    for (const p of ['SAMLRequest', 'RelayState', 'SigAlg', 'Signature']) assert.ok(loc.searchParams.get(p), `no ${p}`);
    const meta = await fetch(`${QUIRE_URL}/sso/saml/${S.provider}/metadata`);
    assert.equal(meta.status, 200);
    assert.match(await meta.text(), /AssertionConsumerService[^>]+\/acs"/);
});

step('setUserAsSSOMemberForOrganization: an admin marks bob as an SSO member', async () => {
    need(S.provider);
    const r = await alice.orgs.setUserAsSsoMemberForOrganization(S.org, BOB_ID);
    assert.equal(r.status, 200);
    assert.equal(r.data.sso, true);
    assert.equal(r.data.user.id, BOB_ID);
    await rejectsWith(403, bob.orgs.setUserAsSsoMemberForOrganization(S.org, BOB_ID), 'a read member marks himself');
});

step('deleteOrganizationSAMLProvider: 204, and 204 again when absent', async () => {
    need(S.second);
    await rejectsWith(403, bob.orgs.deleteOrganizationSamlProvider(S.org, S.second), 'a read member deletes');
    const r = await alice.orgs.deleteOrganizationSamlProvider(S.org, S.second);
    assert.equal(r.status, 204);
    const again = await alice.orgs.deleteOrganizationSamlProvider(S.org, S.second);
    assert.equal(again.status, 204);
    await rejectsWith(404, alice.orgs.getOrganizationSamlProviderById(S.org, S.second), 'the deleted provider');
    const logins = await anonymous.orgs.listSsoProviderLoginsInOrganization(S.org);
    assert.deepEqual(logins.data.items.map((l) => l.id), [S.provider]);
});

kit.finish();
