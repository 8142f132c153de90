// The compat suite's coverage across its files, per client: run.sh runs it after the suite with the
// directory each file's kit wrote its calls to (COMPAT_COVERAGE_DIR). It prints, for each client,
// how many of the operations quire serves (openapi.yaml) and that client defines were called
// through it, and fails when one that 0.202.0 defines was never called through the 0.202.0 client,
// or one quire serves was never called at all. Operations 0.146.0 defines but the suite calls only
// through 0.202.0 are listed, not failed.
//   node coverage.mjs DIR
import fs from 'node:fs';
import path from 'node:path';
import { specOperations, CLIENT_146, CLIENT_202, RAW } from './kit.mjs';

const dir = process.argv[2];
const calledBy = { [CLIENT_146]: new Set(), [CLIENT_202]: new Set(), [RAW]: new Set() };
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const one = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    for (const [who, ops] of Object.entries(one)) for (const op of ops) calledBy[who]?.add(op);
}
const served = [...specOperations('quire')].sort();
const any = new Set(Object.values(calledBy).flatMap((s) => [...s]));
let rc = 0;
console.log(`# coverage: quire serves ${served.length} operations; ${served.filter((op) => any.has(op)).length} called`);
for (const who of [CLIENT_146, CLIENT_202]) {
    const defines = specOperations(who);
    const mine = served.filter((op) => defines.has(op));
    const missed = mine.filter((op) => !calledBy[who].has(op));
    console.log(`#   ${who}: ${mine.length - missed.length} of the ${mine.length} it defines called through it` +
        `${missed.length ? '; not through it: ' + missed.join(', ') : ''}`);
    if (who === CLIENT_202 && missed.length) rc = 1;
    const lacks = served.filter((op) => !defines.has(op));
    if (lacks.length) console.log(`#     ${who} lacks ${lacks.length}: ${lacks.join(', ')}`);
}
console.log(`#   ${RAW}: ${[...calledBy[RAW]].sort().join(', ') || 'none'}`);
const never = served.filter((op) => !any.has(op));
if (never.length) {
    console.log(`# coverage: never called: ${never.join(', ')}`);
    rc = 1;
}
if (rc) console.error('compat: coverage is short (see above)');
process.exit(rc);
