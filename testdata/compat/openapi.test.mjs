// OpenAPI specifications (issue 12): the 11 operations of seed 4.11 through @gitbook/api@0.146.0.
// Sources are given as text (the suite's quire does not reach private addresses, so a loopback
// URL source is the refused case); processing runs as a job, which the server starts at once.
import assert from 'node:assert/strict';
import { suiteKit, need, rejectsWith, has, TIMESTAMP, ALICE_TOKEN, QUIRE_URL } from './kit.mjs';

const OPERATIONS = [
    'listOpenAPISpecs', 'createOpenAPISpec', 'getOpenAPISpecBySlug', 'createOrUpdateOpenAPISpecBySlug',
    'updateOpenAPISpecBySlug', 'deleteOpenAPISpecBySlug', 'listOpenAPISpecVersions',
    'getLatestOpenAPISpecVersion', 'getLatestOpenAPISpecVersionContent', 'getOpenAPISpecVersionById',
    'getOpenAPISpecVersionContentById', 'getComputedRevision', 'getComputedDocument',
];
// Computed content (issue 27) has no operation in 0.146.0.
const LATEST = ['getComputedRevision', 'getComputedDocument'];
const METHODS = Object.fromEntries(OPERATIONS.map((op) => [op.replace('OpenAPI', 'OpenApi'), op]));

const kit = suiteKit({ operations: OPERATIONS, clientMethodToOperation: METHODS, latestOnly: LATEST, viaLatest: LATEST });
const { alice, bob, step, raw } = kit;

const PETSTORE = `openapi: 3.0.3
info:
  title: Compat Petstore
  version: "1.0"
paths:
  /pets:
    get:
      responses:
        "200":
          description: The pets.
`;

let org, firstVersion;

function checkSpec(sp, where) {
    assert.equal(sp.object, 'openapi-spec', where);
    has(sp, 'id', 'id', where);
    assert.match(sp.createdAt, TIMESTAMP, `${where}.createdAt`);
    assert.match(sp.updatedAt, TIMESTAMP, `${where}.updatedAt`);
    assert.ok(['pending', 'progress', 'complete'].includes(sp.processingState), `${where}.processingState`);
    assert.equal(typeof sp.permissions.view, 'boolean');
    assert.equal(typeof sp.permissions.edit, 'boolean');
    assert.ok(sp.urls.location.endsWith(`/v1/orgs/${org}/openapi/${sp.slug}`), `${where}.urls.location ${sp.urls.location}`);
}

/** Polls a specification until its processing is complete: within a minute, since make test
 * serves a race build on a loaded machine (a 10 s bound failed once there). */
async function processed(slug) {
    let last;
    for (let i = 0; i < 600; i++) {
        const { data } = await alice.orgs.getOpenApiSpecBySlug(org, slug);
        if (data.processingState === 'complete') return data;
        last = data;
        await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`${slug} was not processed within 60 s: ${JSON.stringify(last)}`);
}

step('openapi: an organization to keep specifications in', async () => {
    const r = await raw('', ALICE_TOKEN, 'POST', '/orgs', { title: 'OpenAPI Compat' });
    assert.equal(r.status, 201, JSON.stringify(r.data));
    org = r.data.id;
});

step('openapi: create from text, processed by the job', async () => {
    need(org);
    const { status, data } = await alice.orgs.createOpenApiSpec(org, { slug: 'petstore', source: { text: PETSTORE } });
    assert.equal(status, 201);
    checkSpec(data, 'created');
    assert.equal(data.slug, 'petstore');
    assert.equal(data.permissions.edit, true);
    const done = await processed('petstore');
    checkSpec(done, 'processed');
    assert.equal(typeof done.lastVersion, 'string');
    assert.match(done.lastProcessedAt, TIMESTAMP);
    assert.deepEqual(done.lastProcessedErrors, []);
    firstVersion = done.lastVersion;
});

step('openapi: versions, latest and content', async () => {
    need(firstVersion);
    const list = await alice.orgs.listOpenApiSpecVersions(org, 'petstore');
    assert.equal(list.data.count, 1);
    assert.equal(list.data.items[0].id, firstVersion);
    const latest = await alice.orgs.getLatestOpenApiSpecVersion(org, 'petstore');
    assert.equal(latest.data.object, 'openapi-spec-version');
    assert.equal(latest.data.id, firstVersion);
    const byId = await alice.orgs.getOpenApiSpecVersionById(org, 'petstore', firstVersion);
    assert.equal(byId.data.id, firstVersion);
    const content = await alice.orgs.getLatestOpenApiSpecVersionContent(org, 'petstore');
    assert.equal(content.data.filesystem['openapi.yaml'].info.title, 'Compat Petstore');
    const again = await alice.orgs.getOpenApiSpecVersionContentById(org, 'petstore', firstVersion);
    assert.ok(again.data.url.startsWith(`${QUIRE_URL}/openapi/`), again.data.url);
    // A private specification's document is a signed link that needs no bearer token.
    const doc = await fetch(again.data.url);
    assert.equal(doc.status, 200);
    assert.equal(await doc.text(), PETSTORE);
    assert.equal((await fetch(again.data.url.split('?')[0])).status, 404);
});

step('openapi: put the same document makes no version, a changed one does', async () => {
    need(firstVersion);
    const same = await alice.orgs.createOrUpdateOpenApiSpecBySlug(org, 'petstore', { source: { text: PETSTORE } });
    assert.equal(same.status, 200);
    assert.equal((await processed('petstore')).lastVersion, firstVersion);
    await alice.orgs.createOrUpdateOpenApiSpecBySlug(org, 'petstore', { source: { text: PETSTORE.replace('Compat Petstore', 'Compat Petstore 2') } });
    const changed = await processed('petstore');
    assert.notEqual(changed.lastVersion, firstVersion);
    assert.equal((await alice.orgs.listOpenApiSpecVersions(org, 'petstore')).data.count, 2);
});

step('openapi: public visibility publishes the document', async () => {
    need(firstVersion);
    const { data } = await alice.orgs.updateOpenApiSpecBySlug(org, 'petstore', { visibility: 'public' });
    assert.equal(data.visibility, 'public');
    const doc = await fetch(data.urls.published);
    assert.equal(doc.status, 200);
    assert.match(await doc.text(), /Compat Petstore 2/);
});

step('openapi: errors are processing errors, bad input a 400 naming the field', async () => {
    need(org);
    await alice.orgs.createOrUpdateOpenApiSpecBySlug(org, 'broken', { source: { text: 'openapi: 3.1.0\ninfo:\n  title: x\n   version: 1\n' } });
    const broken = await processed('broken');
    assert.equal(broken.lastProcessErrorCode, 'PARSE_ERROR');
    assert.match(broken.lastProcessedErrors[0].message, /line 4/);
    await alice.orgs.createOrUpdateOpenApiSpecBySlug(org, 'loopback', { source: { url: `${QUIRE_URL}/openapi.yaml` } });
    const refused = await processed('loopback');
    assert.equal(refused.lastProcessErrorCode, 'FETCH_ERROR');
    assert.match(refused.lastProcessedErrors[0].message, /not allowed/);
    const err = await rejectsWith(400, alice.orgs.createOpenApiSpec(org, { slug: 'Not A Slug', source: { text: PETSTORE } }), 'bad slug');
    assert.match(err.errorMessage, /slug/);
    await rejectsWith(404, bob.orgs.getOpenApiSpecBySlug(org, 'petstore'), 'an outsider');
});

step('openapi: computed content through today\'s client: pages and a document from the spec, a space made of them', async () => {
    need(org);
    const latest = kit.client(ALICE_TOKEN, { latest: true });
    const source = (props) => ({ type: 'builtin:openapi', props, dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } } });
    const space = await latest.orgs.createSpace(org, { title: 'Computed pets', computedSource: source({ models: false }) });
    assert.equal(space.status, 201);
    const { data: tree } = await latest.spaces.listPages(space.data.id);
    assert.deepEqual(tree.pages.map((p) => p.title), ['Other']);
    const { data: rev } = await latest.spaces.getComputedRevision(space.data.id,
        { source: source({ models: true, grouping: 'by-operation' }), seed: 'compat' });
    assert.deepEqual(rev.files, []);
    assert.deepEqual(rev.reusableContents, []);
    assert.equal(rev.pages[0].pages[0].title, 'GET /pets');
    const block = rev.pages[0].pages[0].document.nodes[0];
    assert.equal(block.type, 'openapi-operation');
    assert.deepEqual(block.data.ref, { kind: 'openapi', spec: 'petstore' });
    const { data: doc } = await latest.spaces.getComputedDocument(space.data.id,
        { source: source({ doc: 'operation', page: '/pets', method: 'get' }), seed: 'compat' }, { schema: 'current' });
    assert.equal(doc.nodes[0].type, 'openapi-operation');
    assert.equal(doc.nodes[0].data.headless, true);
    const err = await rejectsWith(400, latest.spaces.getComputedRevision(space.data.id,
        { source: { type: 'integration:app:pets', props: {} }, seed: 'x' }), 'an integration source');
    assert.match(err.errorMessage, /integration/);
});

step('openapi: list, delete (204 also when absent)', async () => {
    need(org);
    const { data } = await alice.orgs.listOpenApiSpecs(org, { limit: 2 });
    assert.equal(data.count, 3);
    assert.deepEqual(data.items.map((s) => s.slug), ['broken', 'loopback']);
    assert.ok(data.next?.page);
    assert.equal((await alice.orgs.deleteOpenApiSpecBySlug(org, 'broken')).status, 204);
    assert.equal((await alice.orgs.deleteOpenApiSpecBySlug(org, 'broken')).status, 204);
    await rejectsWith(404, alice.orgs.getOpenApiSpecBySlug(org, 'broken'), 'a deleted spec');
});

kit.finish();
