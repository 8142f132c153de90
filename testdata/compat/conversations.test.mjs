// Conversations (issue 16): ingest support conversations through @gitbook/api@0.146.0, wait for
// the analysis job `quire serve` runs after ingestion, and read the conversations, the issues it
// found and the clusters it made, all through the client.
import assert from 'node:assert/strict';
import { suiteKit, need, rejectsWith, has, checkList, ALICE_TOKEN } from './kit.mjs';

const kit = suiteKit({
    operations: [
        'createOrganization', 'ingestConversation', 'listConversations', 'getConversationById',
        'listConversationsIssues', 'getConversationIssueById', 'listConversationsIssuesClusters',
        'getConversationsIssuesCluster',
    ],
    rawOnly: ['createOrganization'],
});
const { alice, bob, step, raw } = kit;
const S = {};

const user = (body) => ({ type: 'message', role: 'user', body });
const CONVERSATIONS = [
    ['inv-1', 'Charged twice', 'We were charged twice for our subscription this month, please refund the duplicate invoice charge.'],
    ['inv-2', 'Invoice amount', 'Our invoice shows the wrong amount, the billing charge for the subscription is double.'],
    ['inv-3', null, 'The credit card payment failed and the invoice for our subscription is unpaid and charged twice.'],
    ['pdf-1', 'PDF export', 'The PDF export is missing all the images when I export the space to PDF.'],
    ['pdf-2', null, 'Exporting to PDF drops the images, the exported PDF has blank pages and missing images.'],
];

/** Polls fn until it returns a truthy value (the analysis runs about a second after ingestion). */
async function eventually(fn, what, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const v = await fn();
        if (v) return v;
        if (Date.now() > deadline) assert.fail(`${what}: not within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 200));
    }
}

function checkConversation(c, where) {
    assert.equal(has(c, 'object', 'string', where), 'conversation');
    has(c, 'id', 'id', where);
    has(c, 'createdAt', 'timestamp', where);
    assert.equal(has(c, 'source', 'string', where), 'email');
    has(c.urls, 'location', 'url', `${where}.urls`);
}

function checkIssue(iw, where) {
    const is = iw.issue;
    assert.equal(has(is, 'object', 'string', where), 'conversation-issue');
    for (const k of ['id', 'title', 'summary', 'conversation', 'cluster']) has(is, k, 'id', `${where}.issue`);
    has(is, 'createdAt', 'timestamp', where);
    has(is, 'ingestedAt', 'timestamp', where);
    assert.equal(is.conversation, iw.conversation.id);
    checkConversation(iw.conversation, `${where}.conversation`);
}

function checkCluster(k, where) {
    assert.equal(has(k, 'object', 'string', where), 'issues-cluster');
    for (const key of ['id', 'label', 'icon', 'summary']) has(k, key, 'id', where);
    assert.equal(has(k, 'weeklyPulse', 'array', where).length, 13);
    assert.ok(k.weeklyPulse.every(Number.isInteger));
    has(k.urls, 'location', 'url', `${where}.urls`);
    has(k.urls, 'app', 'url', `${where}.urls`);
}

step('an organization of its own (raw fetch: not in the 0.146.0 client)', async () => {
    const r = await raw('createOrganization', ALICE_TOKEN, 'POST', '/orgs', { title: 'Support Desk' });
    assert.equal(r.status, 201, JSON.stringify(r.data));
    S.org = r.data.id;
});

step('ingestConversation: 204 for one conversation and for an array of them, metadata kept', async () => {
    need(S.org);
    const all = CONVERSATIONS.map(([id, subject, body]) => {
        const data = { id, parts: [user(body), { type: 'message', role: 'team-member', body: 'Thanks, looking into it.' }] };
        if (subject) data.subject = subject;
        if (id === 'inv-1') data.metadata = { url: 'https://help.example.com/t/inv-1', attributes: { plan: 'pro' }, createdAt: '2026-01-05T10:00:00Z' };
        return data;
    });
    // The first alone, the others in one array (the body's other form in 0.146.0).
    assert.equal((await alice.orgs.ingestConversation(S.org, all[0])).status, 204);
    // An array with one bad item stores none of them.
    await rejectsWith(400, alice.orgs.ingestConversation(S.org, [...all.slice(1), { id: '', parts: [] }]), 'an array with a bad item');
    assert.equal((await alice.orgs.listConversations(S.org)).data.count, 1);
    assert.equal((await alice.orgs.ingestConversation(S.org, all.slice(1))).status, 204);
    const list = await alice.orgs.listConversations(S.org);
    checkList(list.data, checkConversation, 'listConversations');
    assert.equal(list.data.count, CONVERSATIONS.length);
});

step('ingestConversation: limits answer 400, strangers 404', async () => {
    need(S.org);
    await rejectsWith(400, alice.orgs.ingestConversation(S.org, { id: '', parts: [] }), 'empty id');
    await rejectsWith(400, alice.orgs.ingestConversation(S.org, { id: 'x'.repeat(256), parts: [] }), 'id over 255');
    await rejectsWith(400, alice.orgs.ingestConversation(S.org, { id: 'a', subject: 's'.repeat(513), parts: [] }), 'subject over 512');
    await rejectsWith(400, alice.orgs.ingestConversation(S.org, { id: 'a', parts: Array(101).fill(user('x')) }), 'over 100 parts');
    await rejectsWith(400, alice.orgs.ingestConversation(S.org, { id: 'a', parts: [user('x'.repeat(10_001))] }), 'body over 10,000');
    await rejectsWith(404, bob.orgs.ingestConversation(S.org, { id: 'b', parts: [] }), 'a non-member ingests');
});

step('the analysis job finds the issues (waited for)', async () => {
    need(S.org);
    const list = await eventually(async () => {
        const r = await alice.orgs.listConversationsIssues(S.org, { limit: 100 });
        return r.data.count === CONVERSATIONS.length ? r.data : null;
    }, 'issues of every conversation');
    checkList(list, checkIssue, 'listConversationsIssues');
    S.clusterOf = Object.fromEntries(list.items.map((iw) => [iw.issue.conversation, iw.issue.cluster]));
    S.issue = list.items.find((iw) => iw.issue.conversation === 'inv-1').issue;
    assert.equal(S.clusterOf['inv-2'], S.clusterOf['inv-1'], 'billing conversations share a cluster');
    assert.equal(S.clusterOf['pdf-2'], S.clusterOf['pdf-1'], 'PDF conversations share a cluster');
    assert.notEqual(S.clusterOf['pdf-1'], S.clusterOf['inv-1'], 'billing and PDF are apart');
});

step('getConversationById: parts and metadata; processed', async () => {
    need(S.issue);
    const r = await alice.orgs.getConversationById(S.org, 'inv-1');
    checkConversation(r.data.conversation, 'getConversationById');
    assert.equal(r.data.conversation.subject, 'Charged twice');
    assert.equal(r.data.conversation.createdAt, '2026-01-05T10:00:00Z');
    assert.equal(r.data.conversation.urls.source, 'https://help.example.com/t/inv-1');
    has(r.data.conversation, 'processedAt', 'timestamp', 'getConversationById');
    assert.equal(r.data.parts.length, 2);
    assert.equal(r.data.parts[1].role, 'team-member');
    assert.deepEqual(r.data.metadata.attributes, { plan: 'pro' });
    await rejectsWith(404, alice.orgs.getConversationById(S.org, 'nope'), 'a missing conversation');
});

step('listConversationsIssues: by cluster and by conversation; getConversationIssueById', async () => {
    need(S.issue);
    const byCluster = await alice.orgs.listConversationsIssues(S.org, { cluster: S.issue.cluster });
    assert.ok(byCluster.data.items.every((iw) => iw.issue.cluster === S.issue.cluster));
    assert.ok(byCluster.data.count >= 2);
    const byConversation = await alice.orgs.listConversationsIssues(S.org, { conversation: 'pdf-1' });
    assert.equal(byConversation.data.count, 1);
    const paged = await alice.orgs.listConversationsIssues(S.org, { limit: 2 });
    assert.equal(paged.data.items.length, 2);
    const next = await alice.orgs.listConversationsIssues(S.org, { limit: 2, page: paged.data.next.page });
    assert.ok(next.data.items.every((iw) => !paged.data.items.some((p) => p.issue.id === iw.issue.id)));
    const one = await alice.orgs.getConversationIssueById(S.org, S.issue.id);
    checkIssue(one.data, 'getConversationIssueById');
    assert.deepEqual(one.data.issue, S.issue);
    await rejectsWith(404, bob.orgs.getConversationIssueById(S.org, S.issue.id), 'a non-member reads an issue');
});

step('listConversationsIssuesClusters and getConversationsIssuesCluster', async () => {
    need(S.issue);
    const r = await alice.orgs.listConversationsIssuesClusters(S.org, { orderBy: 'issues', order: 'desc' });
    const clusters = checkList(r.data, checkCluster, 'listConversationsIssuesClusters');
    assert.equal(r.data.count, 2);
    assert.ok(clusters[0].stats.issues >= clusters[1].stats.issues);
    const billing = await alice.orgs.getConversationsIssuesCluster(S.org, S.clusterOf['inv-1']);
    checkCluster(billing.data, 'getConversationsIssuesCluster');
    assert.equal(billing.data.stats.issues, 3);
    assert.equal(billing.data.sources.email, 3);
    assert.equal(billing.data.icon, 'credit-card');
    const pending = await alice.orgs.listConversationsIssuesClusters(S.org, { status: 'pending' });
    assert.equal(pending.data.count, 0);
    await rejectsWith(404, alice.orgs.getConversationsIssuesCluster(S.org, 'cl_999999'), 'a missing cluster');
});

step('re-ingesting a conversation re-analyses it', async () => {
    need(S.issue);
    await alice.orgs.ingestConversation(S.org, { id: 'inv-3', parts: [user('The exported PDF is missing images and the PDF export has blank pages.')] });
    const moved = await eventually(async () => {
        const r = await alice.orgs.listConversationsIssues(S.org, { conversation: 'inv-3' });
        return r.data.items[0]?.issue.cluster === S.clusterOf['pdf-1'] ? r.data : null;
    }, 'the re-ingested conversation joins the PDF cluster');
    assert.equal(moved.count, 1);
    const list = await alice.orgs.listConversations(S.org);
    assert.equal(list.data.count, CONVERSATIONS.length, 're-ingestion replaces, it does not add');
});

kit.finish();
