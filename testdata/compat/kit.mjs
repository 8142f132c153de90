// The compat suite's kit: clients that record which operations a file called, raw requests, steps
// that skip when an earlier one failed, error and shape assertions, and the closing checks every
// suite file ends with (each operation it lists was called; each answer fits the public spec).
//
// Each *.test.mjs file runs in its own process against the one server run.sh started:
//
//   import { suiteKit } from './kit.mjs';
//   const kit = suiteKit({ operations: ['listOpenAPISpecs', …] });
//   const { alice, bob, step, need, raw, rejectsWith } = kit;
//   step('…', async () => { … });
//   kit.finish();   // last: coverage and public-spec validation
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
// The current client (0.202.0, installed under an alias): the gap-fill operations are in it.
import { GitBookAPI as GitBookAPILatest, GitBookAPIError as GitBookAPIErrorLatest } from 'gitbook-api-latest';
import { recordingFetch, validation, mendsApplied } from './validate.mjs';

export { GitBookAPIError, GitBookAPILatest, GitBookAPIErrorLatest, recordingFetch };

export function requiredEnv(name) {
    const v = process.env[name];
    if (!v) throw new Error(`${name} must be set (run the suite through testdata/compat/run.sh)`);
    return v;
}

export const QUIRE_URL = requiredEnv('QUIRE_URL').replace(/\/+$/, '');
export const ALICE_TOKEN = requiredEnv('ALICE_TOKEN');
export const BOB_TOKEN = requiredEnv('BOB_TOKEN');
export const BOB_ID = requiredEnv('BOB_ID');
export const API = `${QUIRE_URL}/v1`;

const CLIENT_GROUPS = new Set(['user', 'users', 'urls', 'orgs', 'spaces', 'collections', 'emailDomains', 'integrations', 'subdomains', 'customHostnames', 'org']);

class Missing extends Error {}

// The clients the suite drives quire through, as its coverage reports them.
export const CLIENT_146 = '@gitbook/api@0.146.0';
export const CLIENT_202 = '@gitbook/api@0.202.0';
export const RAW = 'raw fetch';

const SPECS = {
    [CLIENT_146]: 'node_modules/@gitbook/api/spec/openapi.json',
    [CLIENT_202]: 'node_modules/gitbook-api-latest/spec/openapi.json',
};
const here = path.dirname(fileURLToPath(import.meta.url));

/** The operationIds of a spec: openapi.yaml's (what quire serves), or a client's public one. */
export function specOperations(which) {
    if (which === 'quire') {
        const yaml = fs.readFileSync(path.join(here, '..', '..', 'openapi.yaml'), 'utf8');
        return new Set([...yaml.matchAll(/^ {6}operationId: (\w+)\s*$/gm)].map((m) => m[1]));
    }
    const doc = JSON.parse(fs.readFileSync(path.join(here, SPECS[which]), 'utf8'));
    const ids = new Set();
    for (const item of Object.values(doc.paths)) {
        for (const op of Object.values(item)) if (op && typeof op === 'object' && op.operationId) ids.add(op.operationId);
    }
    return ids;
}

// Every operation quire serves or a client defines, by its lower-cased name (client method names).
const OPERATION_BY_LOWER = new Map();
for (const which of ['quire', CLIENT_146, CLIENT_202]) {
    for (const op of specOperations(which)) OPERATION_BY_LOWER.set(op.toLowerCase(), op);
}

/**
 * A suite file's kit. operations: the operationIds the file must call; clientMethodToOperation:
 * client methods named differently from their operation; rawOnly / latestOnly: operations called
 * by raw fetch or through the 0.202.0 client (reported in the summary); viaLatest: operations the
 * file must call through the 0.202.0 client itself (a call by another client does not count).
 */
export function suiteKit({ operations, clientMethodToOperation = {}, rawOnly = [], latestOnly = [], viaLatest = [] }) {
    const called = new Set();
    // Who called what: operationIds by client (CLIENT_146, CLIENT_202, RAW).
    const calledBy = { [CLIENT_146]: new Set(), [CLIENT_202]: new Set(), [RAW]: new Set() };
    let broken = false;

    /** A GitBookAPI (0.146.0, or 0.202.0 with latest) whose method calls are recorded by operationId. */
    function client(authToken, { latest = false } = {}) {
        const Client = latest ? GitBookAPILatest : GitBookAPI;
        const api = new Client({ endpoint: QUIRE_URL, authToken, serviceBinding: { fetch: recordingFetch } });
        const mine = calledBy[latest ? CLIENT_202 : CLIENT_146];
        // Method names differ from operationIds in case only ("OpenApi", "Saml", "Sso", "Pdf").
        const record = (name) => {
            const op = clientMethodToOperation[name] ?? OPERATION_BY_LOWER.get(name.toLowerCase()) ?? name;
            called.add(op);
            mine.add(op);
        };
        return new Proxy(api, {
            get(target, prop) {
                const value = target[prop];
                if (prop === 'getApiInformation') {
                    return (...args) => {
                        record(prop);
                        return value.apply(target, args);
                    };
                }
                if (typeof prop === 'string' && CLIENT_GROUPS.has(prop)) {
                    return new Proxy(value, {
                        get(group, method) {
                            const fn = group[method];
                            if (typeof fn !== 'function') return fn;
                            return (...args) => {
                                record(method);
                                return fn(...args);
                            };
                        },
                    });
                }
                return value;
            },
        });
    }

    /** A request the client cannot make: plain fetch with the bearer token. */
    async function raw(operationId, token, method, path, body) {
        if (operationId) {
            called.add(operationId);
            calledBy[RAW].add(operationId);
        }
        const headers = { Accept: 'application/json' };
        if (token) headers.Authorization = `Bearer ${token}`;
        if (body !== undefined) headers['Content-Type'] = 'application/json';
        const res = await recordingFetch(`${API}${path}`, {
            method,
            headers,
            body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        let data = null;
        if (text) {
            try {
                data = JSON.parse(text);
            } catch {
                data = text;
            }
        }
        return { status: res.status, data, headers: res.headers };
    }

    /** Arrange: a new organization of the token's user, with a space ('Handbook') and a site. */
    async function orgWithSpaceAndSite(token, title) {
        const r = await raw(null, token, 'POST', '/orgs', { title });
        assert.equal(r.status, 201, JSON.stringify(r.data));
        const sp = await raw(null, token, 'POST', `/orgs/${r.data.id}/spaces`, { title: 'Handbook' });
        assert.equal(sp.status, 201, JSON.stringify(sp.data));
        const site = await raw(null, token, 'POST', `/orgs/${r.data.id}/sites`, {});
        assert.equal(site.status, 201, JSON.stringify(site.data));
        return { org: r.data.id, space: sp.data.id, site: site.data.id };
    }

    function step(name, fn) {
        test(name, { timeout: 30_000 }, async (t) => {
            try {
                await fn(t);
            } catch (err) {
                if (err instanceof Missing) {
                    t.skip('an earlier step it depends on failed');
                    return;
                }
                broken = true;
                throw err;
            }
        });
    }

    /** The closing steps: every listed operation was called, every answer fits the public spec. */
    function finish() {
        step('every listed operation was exercised', async (t) => {
            if (broken) {
                t.skip('earlier steps failed; coverage is not meaningful');
                return;
            }
            const missing = operations.filter((op) => !called.has(op));
            assert.deepEqual(missing, [], `operations never called: ${missing.join(', ')}`);
            const notLatest = viaLatest.filter((op) => !calledBy[CLIENT_202].has(op));
            assert.deepEqual(notLatest, [], `operations never called through ${CLIENT_202}: ${notLatest.join(', ')}`);
        });
        step('every answer validates against the public spec of its operation', async () => {
            assert.ok(validation.checked > 0, 'no answer was recorded');
            const distinct = [...new Set(validation.violations)];
            assert.deepEqual(distinct, [], `${distinct.length} answers do not fit the public spec:\n  ${distinct.join('\n  ')}`);
        });
        after(() => {
            const versions = [...validation.byVersion].map(([v, n]) => `${n} against ${v}`).join(', ');
            console.log(`# public-spec validation: ${validation.checked} answers of ${validation.byOperation.size} operations ` +
                `(${versions}); ${validation.violations.length} violations; mends: ${mendsApplied.length}`);
            for (const m of mendsApplied) console.log(`#   mend ${m}`);
            const by = Object.entries(calledBy).map(([who, ops]) => `${ops.size} through ${who}`).join(', ');
            console.log(`# operations: ${operations.length} listed, ${called.size} called (${by})` +
                `${latestOnly.length ? '; 0.202.0 only: ' + latestOnly.join(', ') : ''}` +
                `${rawOnly.length ? '; raw fetch only: ' + rawOnly.join(', ') : ''}`);
            // run.sh sums every file's calls into one report per client (coverage.mjs).
            const dir = process.env.COMPAT_COVERAGE_DIR;
            if (dir) {
                const file = path.basename(process.argv[1] ?? `file-${process.pid}`);
                fs.writeFileSync(path.join(dir, `${file}.${process.pid}.json`), JSON.stringify(
                    Object.fromEntries(Object.entries(calledBy).map(([who, ops]) => [who, [...ops].sort()]))));
            }
        });
    }

    return {
        called,
        calledBy,
        client,
        raw,
        orgWithSpaceAndSite,
        step,
        finish,
        alice: client(ALICE_TOKEN),
        bob: client(BOB_TOKEN),
        anonymous: client(undefined),
        impostor: client('gb_api_thisIsNotARealToken000000000000'),
    };
}

/** Skip the step when a value an earlier step should have produced is absent. */
export function need(...values) {
    for (const v of values) if (v === undefined || v === null) throw new Missing();
}

/** Await a client call that must fail with one of the given HTTP statuses. */
export async function rejectsWithAnyOf(statuses, promise, what) {
    let err;
    try {
        const res = await promise;
        assert.fail(`${what}: expected HTTP ${statuses.join(' or ')}, got ${res?.status}`);
    } catch (e) {
        if (e instanceof assert.AssertionError) throw e;
        err = e;
    }
    assert.ok(err instanceof GitBookAPIError || err instanceof GitBookAPIErrorLatest,
        `${what}: expected a GitBookAPIError, got ${err}`);
    assert.ok(statuses.includes(err.code),
        `${what}: expected HTTP ${statuses.join(' or ')}, got ${err.code} (${err.errorMessage})`);
    assert.equal(err.response.status, err.code);
    assert.equal(typeof err.errorMessage, 'string');
    assert.ok(err.errorMessage.length > 0, `${what}: the error has an empty message`);
    return err;
}

/** Await a client call that must fail with the given HTTP status. */
export function rejectsWith(status, promise, what) {
    return rejectsWithAnyOf([status], promise, what);
}

// Shapes

export const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

export function has(obj, key, type, where) {
    assert.ok(obj !== null && typeof obj === 'object', `${where}: not an object: ${JSON.stringify(obj)}`);
    assert.ok(key in obj, `${where}: missing required field "${key}" in ${JSON.stringify(obj)}`);
    const v = obj[key];
    switch (type) {
        case 'string':
            assert.equal(typeof v, 'string', `${where}.${key} is not a string: ${JSON.stringify(v)}`);
            break;
        case 'id':
            assert.equal(typeof v, 'string', `${where}.${key} is not a string: ${JSON.stringify(v)}`);
            assert.ok(v.length > 0, `${where}.${key} is empty`);
            break;
        case 'boolean':
            assert.equal(typeof v, 'boolean', `${where}.${key} is not a boolean: ${JSON.stringify(v)}`);
            break;
        case 'integer':
            assert.ok(Number.isInteger(v), `${where}.${key} is not an integer: ${JSON.stringify(v)}`);
            break;
        case 'timestamp':
            assert.match(String(v), TIMESTAMP, `${where}.${key} is not an RFC 3339 UTC timestamp: ${v}`);
            break;
        case 'url':
            assert.equal(typeof v, 'string', `${where}.${key} is not a string`);
            assert.doesNotThrow(() => new URL(v), `${where}.${key} is not an absolute URL: ${v}`);
            break;
        case 'array':
            assert.ok(Array.isArray(v), `${where}.${key} is not an array: ${JSON.stringify(v)}`);
            break;
        case 'object':
            assert.ok(v !== null && typeof v === 'object' && !Array.isArray(v), `${where}.${key} is not an object`);
            break;
        case 'present':
            break;
        default:
            throw new Error(`unknown type ${type}`);
    }
    return v;
}

export function booleans(obj, keys, where) {
    for (const k of keys) has(obj, k, 'boolean', where);
}

export function optionalTimestamp(obj, key, where) {
    if (obj[key] !== undefined) has(obj, key, 'timestamp', where);
}

export function checkList(body, itemCheck, where) {
    has(body, 'items', 'array', where);
    has(body, 'count', 'integer', where);
    assert.ok(body.count >= body.items.length, `${where}: count ${body.count} < items ${body.items.length}`);
    if (body.next !== undefined) has(body.next, 'page', 'string', `${where}.next`);
    body.items.forEach((item, i) => itemCheck(item, `${where}.items[${i}]`));
    return body.items;
}
