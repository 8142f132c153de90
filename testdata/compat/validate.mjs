// Validation of recorded answers against GitBook's public OpenAPI documents.
//
// Every HTTP answer the suite receives from quire's API is matched to its operation by method and
// path, and its JSON body is validated against the schema each public spec declares for that
// status: @gitbook/api@0.146.0 (the seed's client) and @gitbook/api@0.202.0 (today's client), each
// where it has the operation. An answer carries what 0.202.0 requires and keeps what 0.146.0
// required and 0.202.0 dropped. openapi.yaml may be stricter than these documents, never
// different; this is where that promise is checked.
//
// Modelling bugs of the public documents are mended in MENDS below, each with the reason; statuses
// where the seed deliberately differs from GitBook are in SEED_STATUSES.

import { createRequire } from 'node:module';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);

// Statuses the seed sets where GitBook answers another one: the body is validated against the
// schema of the status GitBook declares.
// NO_BODY: the seed answers without a body where GitBook answers one.
const NO_BODY = 'no body';
const SEED_STATUSES = {
    duplicateSpace: { 200: '201' }, // seed: POST /spaces/{id}/duplicate answers 200 with the duplicate
    applyTemplateToSpace: { 204: NO_BODY }, // seed: POST …/content/template answers 204
};

// Mends of the public documents, applied to a copy of each before compiling. Each says why.
const MENDS = [
    {
        why: 'cancelImportRun answered 201 in 0.146.0 and answers 200 since (the same cancelled run): ' +
            'quire answers the later status, which 0.146.0 is taken to allow.',
        apply(spec) {
            const op = spec.paths['/org/{organizationId}/imports/{importRunId}/cancel']?.post;
            if (!op?.responses?.['201'] || op.responses['200']) return false;
            op.responses['200'] = op.responses['201'];
            return true;
        },
    },
    {
        why: "Document's \"Empty\" branch is closed (additionalProperties: false), so inside " +
            "RevisionPageDocument's allOf it can never match next to the page's own properties: a page " +
            'answered without markdown or document fails. Its intent is "neither markdown nor document".',
        apply(spec) {
            const doc = spec.components.schemas.Document;
            if (!doc || !Array.isArray(doc.oneOf)) return false;
            let mended = false;
            doc.oneOf = doc.oneOf.map((branch) => {
                const props = branch.properties ?? {};
                if (branch.additionalProperties === false && !props.markdown && !props.document) {
                    mended = true;
                    return { not: { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] } };
                }
                return branch;
            });
            return mended;
        },
    },
    {
        why: "A page_edited change's attributes are a oneOf of the document, group and link attribute " +
            'objects, none closed and each taking any one attribute, so every attributes object matches ' +
            'two or three of them and no page_edited change validates. Its intent is anyOf.',
        apply(spec) {
            const edited = spec.components.schemas.RevisionSemanticChangePageEdited;
            const attrs = edited?.properties?.attributes;
            if (!attrs || !Array.isArray(attrs.oneOf)) return false;
            attrs.anyOf = attrs.oneOf;
            delete attrs.oneOf;
            return true;
        },
    },
    {
        why: "DocumentInlineButton's data is an allOf of its label, kind, size and icon with a oneOf of " +
            '{ref} and {action}, each branch closed (additionalProperties: false) without naming the ' +
            'label: no button can match. Its intent is "exactly one of ref or action".',
        apply(spec) {
            const data = spec.components.schemas.DocumentInlineButton?.properties?.data;
            let mended = false;
            for (const part of data?.allOf ?? []) {
                for (const branch of part.oneOf ?? []) {
                    if (branch.additionalProperties === false) {
                        delete branch.additionalProperties;
                        mended = true;
                    }
                }
            }
            return mended;
        },
    },
];

function loadSpec(name) {
    return structuredClone(require(name));
}

// Merge rule kinds 0.202.0 added: a space (or organization) whose rules a 0.202.0 client set to one
// of them answers it, and 0.146.0's MergeRule enum cannot hold it. Against 0.146.0 such a rule is
// left out of the answer before validating; everything else in the answer is still checked.
const RULES_146_LACKS = new Set(['require_at_least_one_approved_review', 'require_author_to_merge', 'custom']);

function withoutNewerMergeRules(v) {
    if (Array.isArray(v)) return v.map(withoutNewerMergeRules);
    if (v === null || typeof v !== 'object') return v;
    const out = {};
    for (const [k, x] of Object.entries(v)) {
        if (k === 'mergeRules' && x && Array.isArray(x.rules)) {
            out[k] = { ...x, rules: x.rules.filter((r) => !RULES_146_LACKS.has(r?.rule)) };
        } else {
            out[k] = withoutNewerMergeRules(x);
        }
    }
    return out;
}

// Site permission origins 0.202.0 added (UserSitePermissionSiteOrigin: a role that a site's own
// default level or grants decide): 0.146.0's origin names only a space or an organization, so no
// answer for such a member can fit it. Against 0.146.0 a site origin is checked as the pointer it
// replaced, the organization's (the site's id in its place); everything else is still checked.
function withoutNewerSiteOrigins(v) {
    if (Array.isArray(v)) return v.map(withoutNewerSiteOrigins);
    if (v === null || typeof v !== 'object') return v;
    const out = {};
    for (const [k, x] of Object.entries(v)) {
        out[k] = k === 'origin' && x?.type === 'site' ? { type: 'organization', organization: x.site } : withoutNewerSiteOrigins(x);
    }
    return out;
}

/** OpenAPI 3.0 schema objects to JSON Schema (draft-07) as Ajv reads it. */
function toJSONSchema(s) {
    if (Array.isArray(s)) return s.map(toJSONSchema);
    if (s === null || typeof s !== 'object') return s;
    const out = {};
    for (const [k, v] of Object.entries(s)) {
        if (k === 'nullable' || k === 'discriminator' || k === 'example' || k === 'xml' ||
            k === 'externalDocs' || k === 'deprecated' || k.startsWith('x-')) continue;
        if (k === 'properties' || k === 'patternProperties') {
            out[k] = Object.fromEntries(Object.entries(v).map(([p, ps]) => [p, toJSONSchema(ps)]));
        } else if (k === 'exclusiveMinimum' && typeof v === 'boolean') {
            if (v) out.exclusiveMinimum = s.minimum;
        } else if (k === 'exclusiveMaximum' && typeof v === 'boolean') {
            if (v) out.exclusiveMaximum = s.maximum;
        } else {
            out[k] = toJSONSchema(v);
        }
    }
    if (out.exclusiveMinimum !== undefined && s.exclusiveMinimum === true) delete out.minimum;
    if (out.exclusiveMaximum !== undefined && s.exclusiveMaximum === true) delete out.maximum;
    if (s.nullable === true) return { anyOf: [out, { type: 'null' }] };
    return out;
}

class PublicSpec {
    constructor(version, doc) {
        this.version = version;
        this.doc = doc;
        this.id = `https://quire.invalid/gitbook-${version}.json`;
        this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
        addFormats(this.ajv);
        // Formats GitBook names but does not define (0.202.0's Icon and Emoji): any string.
        for (const f of ['icon', 'emoji']) this.ajv.addFormat(f, true);
        const schemas = {};
        for (const [name, schema] of Object.entries(doc.components.schemas)) schemas[name] = toJSONSchema(schema);
        this.ajv.addSchema({ $id: this.id, components: { schemas } });
        this.operations = [];
        for (const [path, item] of Object.entries(doc.paths)) {
            for (const [method, op] of Object.entries(item)) {
                if (!op || typeof op !== 'object' || !op.operationId) continue;
                const segments = path.split('/').filter(Boolean);
                const literal = segments.filter((p) => !p.startsWith('{')).length;
                const re = new RegExp('^/' + segments.map((p) => (p.startsWith('{') ? '[^/]+' : escape(p))).join('/') + '/?$');
                this.operations.push({ method: method.toUpperCase(), path, re, literal, op });
            }
        }
        this.operations.sort((a, b) => b.literal - a.literal);
        this.byId = new Map(this.operations.map((o) => [o.op.operationId, o]));
        this.compiled = new Map();
    }

    match(method, path) {
        return this.operations.find((o) => o.method === method && o.re.test(path));
    }

    /** The body schema declared for a status of an operation, or undefined when none is. */
    responseSchema(entry, status) {
        const responses = entry.op.responses ?? {};
        let res = responses[String(status)] ?? responses[`${String(status)[0]}XX`];
        if (!res && status >= 400) {
            res = responses.default ?? this.doc.components.responses?.UnexpectedError;
        }
        if (!res) return undefined;
        if (res.$ref) res = this.doc.components.responses[res.$ref.split('/').pop()];
        const schema = res?.content?.['application/json']?.schema;
        return schema ?? null; // null: declared without a body
    }

    validator(schema) {
        const key = JSON.stringify(schema);
        let v = this.compiled.get(key);
        if (!v) {
            v = this.ajv.compile(rebase(toJSONSchema(schema), this.id));
            this.compiled.set(key, v);
        }
        return v;
    }
}

function escape(s) {
    return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Points the local refs of a schema at the spec document added to Ajv. */
function rebase(s, id) {
    if (Array.isArray(s)) return s.map((x) => rebase(x, id));
    if (s === null || typeof s !== 'object') return s;
    const out = {};
    for (const [k, v] of Object.entries(s)) {
        out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#') ? id + v : rebase(v, id);
    }
    return out;
}

const specs = {};
const mendsApplied = [];
for (const [version, pkg] of [['0.146.0', '@gitbook/api'], ['0.202.0', 'gitbook-api-latest']]) {
    const doc = loadSpec(`${pkg}/spec/openapi.json`);
    for (const m of MENDS) if (m.apply(doc)) mendsApplied.push(`${version}: ${m.why}`);
    specs[version] = new PublicSpec(version, doc);
}

/** What the suite has validated, and what failed. */
export const validation = { checked: 0, byOperation: new Map(), byVersion: new Map(), violations: [], unmatched: [] };

/**
 * Validates one recorded answer against every public spec that has its operation (0.146.0 for the
 * clients the seed was taken from, 0.202.0 for today's client); records a violation for each spec
 * it does not fit. An operation exists in a version when that version has an operation at the
 * answer's method and path: quire's answers must satisfy both clients.
 */
export function validateAnswer(method, url, status, bodyText) {
    const u = new URL(url);
    if (!u.pathname.startsWith('/v1/') && u.pathname !== '/v1') return;
    const path = u.pathname.slice(3) || '/';
    const matches = [];
    for (const spec of Object.values(specs)) {
        const entry = spec.match(method, path);
        if (entry) matches.push([spec, entry]);
    }
    if (matches.length === 0) {
        if (status < 400) validation.unmatched.push(`${method} ${path} -> ${status}`);
        return;
    }
    const opId = matches[0][1].op.operationId;
    validation.checked++;
    validation.byOperation.set(opId, (validation.byOperation.get(opId) ?? 0) + 1);
    let body;
    let parsed = false;
    for (const [spec, entry] of matches) {
        const id = entry.op.operationId;
        validation.byVersion.set(spec.version, (validation.byVersion.get(spec.version) ?? 0) + 1);
        const declared = SEED_STATUSES[id]?.[status] ?? status;
        const schema = declared === NO_BODY ? null : spec.responseSchema(entry, Number(declared));
        const where = `${id} (${method} ${path}) ${status} [${spec.version}]`;
        if (schema === undefined) {
            validation.violations.push(`${where}: status ${status} is not declared by the public spec`);
            continue;
        }
        if (schema === null) {
            if (bodyText && status !== 204) validation.violations.push(`${where}: a body where the spec declares none`);
            continue;
        }
        if (!parsed) {
            try {
                body = JSON.parse(bodyText);
                parsed = true;
            } catch {
                validation.violations.push(`${where}: body is not JSON: ${bodyText.slice(0, 80)}`);
                return;
            }
        }
        const validate = spec.validator(schema);
        if (!validate(spec.version === '0.146.0' ? withoutNewerSiteOrigins(withoutNewerMergeRules(body)) : body)) {
            const errors = (validate.errors ?? []).slice(0, 6)
                .map((e) => `${e.instancePath || '/'} ${e.message}${e.params?.additionalProperty ? ` (${e.params.additionalProperty})` : ''}`);
            validation.violations.push(`${where}: ${errors.join('; ')}`);
        }
    }
}

/** A fetch that validates every API answer before handing it back. */
export async function recordingFetch(input, init) {
    const res = await fetch(input, init);
    const url = typeof input === 'string' ? input : input.url;
    const method = (init?.method ?? (typeof input === 'string' ? 'GET' : input.method) ?? 'GET').toUpperCase();
    const type = res.headers.get('content-type') ?? '';
    const text = type.includes('json') || res.status === 204 ? await res.clone().text() : '';
    if (type.includes('json') || res.status === 204) validateAnswer(method, url, res.status, text);
    return res;
}

export { mendsApplied };
