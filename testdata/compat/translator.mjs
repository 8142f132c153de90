// A stand-in machine translator for the compat suite: a LibreTranslate-protocol server (GET
// /languages, POST /translate) on a free loopback port, printed on stdout. LibreTranslate itself
// is a Python service with large models that cannot be installed here; this one checks the
// request's shape as LibreTranslate does (q a string or an array, source, target, format, api_key
// equal to TRANSLATOR_KEY) and translates deterministically: each text is prefixed "[target] ".
import http from 'node:http';

const KEY = process.env.TRANSLATOR_KEY ?? '';
const LANGUAGES = [
    { code: 'en', name: 'English', targets: ['fr', 'de'] },
    { code: 'fr', name: 'French', targets: ['en'] },
    { code: 'de', name: 'German', targets: ['en'] },
];

function answer(res, status, body) {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
}

const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/languages') return answer(res, 200, LANGUAGES);
    if (req.method !== 'POST' || req.url !== '/translate') return answer(res, 404, { error: 'Not found' });
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
        let body;
        try {
            body = JSON.parse(raw);
        } catch {
            return answer(res, 400, { error: 'Invalid request: the body is not JSON' });
        }
        if (KEY && body.api_key !== KEY) return answer(res, 403, { error: 'Invalid API key' });
        const q = body.q;
        const texts = typeof q === 'string' ? [q] : q;
        if (!Array.isArray(texts) || texts.length === 0 || texts.some((t) => typeof t !== 'string')) {
            return answer(res, 400, { error: 'Invalid request: missing q parameter' });
        }
        if (!['text', 'html'].includes(body.format)) return answer(res, 400, { error: 'Invalid format' });
        const source = LANGUAGES.find((l) => l.code === body.source);
        if (!source || !source.targets.includes(body.target)) {
            return answer(res, 400, { error: `${body.source} to ${body.target} is not supported` });
        }
        const out = texts.map((t) => `[${body.target}] ${t}`);
        answer(res, 200, { translatedText: typeof q === 'string' ? out[0] : out });
    });
});

server.listen(0, '127.0.0.1', () => console.log(server.address().port));
