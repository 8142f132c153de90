// Translations (issue 15) through GitBook's client: the six operations of the seed's §4.13, and a
// run end to end through the stand-in translator run.sh starts (translator.mjs: LibreTranslate's
// protocol, each text prefixed "[fr] "), so the result space is checked page by page.

import assert from 'node:assert/strict';
import { suiteKit, need, rejectsWith, has, checkList, TIMESTAMP, ALICE_TOKEN, API } from './kit.mjs';

const kit = suiteKit({
    operations: ['listTranslations', 'createTranslation', 'getTranslation', 'updateTranslation',
        'deleteTranslation', 'runTranslation', 'listGlossaryEntries', 'updateGlossaryEntries', 'getGlossaryEntry'],
});
const { alice, bob, step, raw, client } = kit;
const latest = client(ALICE_TOKEN, { latest: true });
const S = {};

const INSTALL_MD = 'Install it with `quire serve --addr :8080` and read [the guide](https://example.com/guide).\n';

function instructions(...terms) {
    const text = (t) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
    return {
        object: 'document', data: {}, nodes: [{
            object: 'block', type: 'list-unordered', data: {}, nodes: terms.map((t) => ({
                object: 'block', type: 'list-item', data: {},
                nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text(t)] }],
            })),
        }],
    };
}

function checkTranslation(t, where) {
    has(t, 'object', 'string', where);
    assert.equal(t.object, 'translation');
    has(t, 'id', 'id', where);
    assert.ok(['pending', 'running', 'completed'].includes(t.status), `${where}.status ${t.status}`);
    has(t.source, 'space', 'id', `${where}.source`);
    for (const k of ['createdAt', 'updatedAt']) assert.match(t[k], TIMESTAMP, `${where}.${k}`);
    for (const k of ['runs', 'totalWords', 'totalPages', 'totalDuration', 'latestRunDuration', 'latestPages', 'latestWords']) {
        assert.ok(Number.isInteger(t.stats[k]) && t.stats[k] >= 0, `${where}.stats.${k} ${t.stats[k]}`);
    }
    assert.equal(t.urls.location, `${API}/orgs/${S.org}/translations/${t.id}`);
    assert.equal(t.instructions.object, 'document');
}

step('setup: an organization, a source space with two pages written through a merged change request', async () => {
    const org = await raw('createOrganization', ALICE_TOKEN, 'POST', '/orgs', { title: 'Translators' });
    assert.equal(org.status, 201, JSON.stringify(org.data));
    S.org = org.data.id;
    S.space = (await alice.orgs.createSpace(S.org, { title: 'Handbook' })).data.id;
    const other = await raw('createOrganization', ALICE_TOKEN, 'POST', '/orgs', { title: 'Elsewhere' });
    S.elsewhere = (await alice.orgs.createSpace(other.data.id, { title: 'Elsewhere' })).data.id;
    const cr = (await alice.spaces.createChangeRequest(S.space, { subject: 'Write' })).data;
    await latest.spaces.updateChangeRequestContent(S.space, cr.id, {
        changes: [
            { operation: 'insert_page', ref: 'install', title: 'Install', document: { markdown: INSTALL_MD } },
            { operation: 'insert_page', ref: 'usage', title: 'Usage of Quire', into: 'install', document: { markdown: 'Quire keeps docs.\n' } },
        ],
    }, { compat: false });
    const merged = (await alice.spaces.mergeChangeRequest(S.space, cr.id)).data;
    assert.equal(merged.result, 'merge');
});

step('createTranslation: 201 with the source, language, instructions and empty stats', async () => {
    need(S.space);
    const r = await alice.orgs.createTranslation(S.org, {
        language: 'fr', source: { space: S.space, language: 'en' }, instructions: instructions('Quire'),
    });
    assert.equal(r.status, 201);
    checkTranslation(r.data, 'createTranslation');
    assert.equal(r.data.status, 'pending');
    assert.deepEqual(r.data.source, { space: S.space, language: 'en' });
    assert.equal(r.data.language, 'fr');
    assert.equal(r.data.result, undefined, 'no result before the first run');
    assert.equal(r.data.stats.runs, 0);
    assert.deepEqual(r.data.permissions, { view: true, edit: true });
    S.tr = r.data.id;
});

step('createTranslation: a language outside the list is 400, a space of another organization 404', async () => {
    need(S.tr);
    await rejectsWith(400, alice.orgs.createTranslation(S.org, { language: 'tlh', source: { space: S.space, language: 'en' } }),
        'an unknown language');
    await rejectsWith(400, alice.orgs.createTranslation(S.org, { language: 'en', source: { space: S.space, language: 'en' } }),
        'the source language');
    await rejectsWith(404, alice.orgs.createTranslation(S.org, { language: 'fr', source: { space: S.elsewhere, language: 'en' } }),
        'a space of another organization');
    await rejectsWith(404, bob.orgs.createTranslation(S.org, { language: 'fr', source: { space: S.space, language: 'en' } }),
        'a caller outside the organization');
});

step('listTranslations, getTranslation, updateTranslation', async () => {
    need(S.tr);
    const de = await alice.orgs.createTranslation(S.org, { language: 'de', source: { space: S.space, language: 'en' } });
    S.de = de.data.id;
    const page1 = (await alice.orgs.listTranslations(S.org, { limit: 1 })).data;
    checkList(page1, checkTranslation, 'listTranslations');
    assert.equal(page1.count, 2);
    assert.deepEqual(page1.items.map((t) => t.id), [S.tr]);
    const page2 = (await alice.orgs.listTranslations(S.org, { limit: 1, page: page1.next.page })).data;
    assert.deepEqual(page2.items.map((t) => t.id), [S.de]);
    assert.equal(page2.next, undefined);

    const got = (await alice.orgs.getTranslation(S.org, S.tr)).data;
    checkTranslation(got, 'getTranslation');
    assert.equal(got.id, S.tr);
    await rejectsWith(404, alice.orgs.getTranslation(S.org, 'nope'), 'an unknown translation');
    await rejectsWith(404, bob.orgs.getTranslation(S.org, S.tr), 'a caller outside the organization');

    const up = (await alice.orgs.updateTranslation(S.org, S.tr, { instructions: instructions('Quire', 'docs') })).data;
    checkTranslation(up, 'updateTranslation');
    assert.equal(up.instructions.nodes[0].nodes.length, 2);
});

step('runTranslation: 204, then the run completes with the result space and real stats', async () => {
    need(S.tr);
    const r = await alice.orgs.runTranslation(S.org, S.tr);
    assert.equal(r.status, 204);
    let t;
    for (let i = 0; i < 100; i++) {
        t = (await alice.orgs.getTranslation(S.org, S.tr)).data;
        if (t.status === 'completed') break;
        await new Promise((done) => setTimeout(done, 100));
    }
    checkTranslation(t, 'getTranslation after the run');
    assert.equal(t.status, 'completed', 'the run completes');
    has(t.result, 'space', 'id', 'result');
    has(t.result, 'revision', 'id', 'result');
    assert.equal(t.stats.runs, 1);
    assert.equal(t.stats.latestPages, 2);
    assert.equal(t.stats.totalPages, 2);
    assert.ok(t.stats.latestWords > 0 && t.stats.totalWords === t.stats.latestWords, JSON.stringify(t.stats));

    const space = (await alice.spaces.getSpaceById(t.result.space)).data;
    assert.equal(space.title, 'Handbook (fr)');
    assert.equal(space.language, 'fr');
    const install = await raw(null, ALICE_TOKEN, 'GET', `/spaces/${t.result.space}/content/path/install?format=markdown`);
    assert.equal(install.status, 200);
    assert.equal(install.data.title, '[fr] Install');
    assert.equal(install.data.markdown,
        '\\[fr\\] Install it with `quire serve --addr :8080` \\[fr\\] and read [\\[fr\\] the guide](https://example.com/guide).\n',
        'code and link targets stay; text is translated');
    const usage = await raw(null, ALICE_TOKEN, 'GET', `/spaces/${t.result.space}/content/path/install/usage-of-quire?format=markdown`);
    assert.equal(usage.status, 200, 'the page tree is kept');
    assert.equal(usage.data.title, '[fr] Usage of Quire', 'the glossary term stays as written');
    S.result = t.result;
});

step('deleteTranslation: 204, and 204 again; the result space stays', async () => {
    need(S.result);
    assert.equal((await alice.orgs.deleteTranslation(S.org, S.tr)).status, 204);
    assert.equal((await alice.orgs.deleteTranslation(S.org, S.tr)).status, 204);
    await rejectsWith(404, alice.orgs.getTranslation(S.org, S.tr), 'a deleted translation');
    await rejectsWith(404, alice.orgs.runTranslation(S.org, S.tr), 'running a deleted translation');
    assert.equal((await alice.spaces.getSpaceById(S.result.space)).status, 200);
    assert.equal((await alice.orgs.deleteTranslation(S.org, S.de)).status, 204);
});

step('the glossary (0.202.0): a batch inserts, updates and deletes; list by a language, get one; a bad batch is 400', async () => {
    need(S.org);
    const put = await latest.orgs.updateGlossaryEntries(S.org, { operations: [
        { type: 'insert', translations: { en: 'Space', fr: 'Espace' } },
        { type: 'insert', translations: { en: 'Quire' } },
    ] });
    assert.equal(put.status, 204);
    const list = (await latest.orgs.listGlossaryEntries(S.org, { orderBy: 'fr' })).data;
    checkList(list, (e, where) => {
        assert.equal(e.object, 'glossary-entry', where);
        has(e, 'id', 'id', where);
        for (const k of ['createdAt', 'updatedAt']) assert.match(e[k], TIMESTAMP, `${where}.${k}`);
        assert.equal(e.urls.location, `${API}/orgs/${S.org}/translations-glossary/${e.id}`);
    }, 'glossary');
    assert.equal(list.items.length, 2);
    assert.deepEqual(list.items.map((e) => e.translations.en), ['Quire', 'Space'], 'entries without a French term first');
    const space = list.items[1];
    await latest.orgs.updateGlossaryEntries(S.org, { operations: [
        { type: 'update', id: space.id, translations: { en: 'Space', fr: 'Zone' } },
        { type: 'delete', id: list.items[0].id },
    ] });
    const got = (await latest.orgs.getGlossaryEntry(S.org, space.id)).data;
    assert.deepEqual(got.translations, { en: 'Space', fr: 'Zone' });
    await rejectsWith(400, latest.orgs.updateGlossaryEntries(S.org, { operations: [{ type: 'delete', id: 'missing' }] }), 'a missing entry');
    await rejectsWith(404, latest.orgs.getGlossaryEntry(S.org, list.items[0].id), 'a deleted entry');
    assert.equal((await latest.orgs.listGlossaryEntries(S.org)).data.items.length, 1);
});

kit.finish();
