// Drives a running OMCP gateway (the demo) through the official MCP TypeScript SDK, the client
// Claude Code, Cursor and many bots embed. Client.listTools compiles every tool's outputSchema with
// ajv and Client.callTool validates each result's structuredContent against it, throwing when it
// does not match: a call that throws here would throw in those agents too.
//
// Usage: node every-tool-through-the-sdk.mjs <sdk package dir> <http://host:port/mcp> [ws://host:port/mcp/ws]
// Prints one JSON report on stdout; exits non-zero only when the script itself could not run.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const [sdkDir, httpUrl, wsUrl] = process.argv.slice(2);
if (!sdkDir || !httpUrl) {
    console.error('usage: node every-tool-through-the-sdk.mjs <sdk package dir> <mcp url> [ws url]');
    process.exit(2);
}
// The SDK lives in conformance/node_modules, not next to this file, so it is imported by path.
const sdk = file => import(pathToFileURL(join(sdkDir, 'dist/esm', file)).href);
const { Client } = await sdk('client/index.js');
const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');
const { WebSocketClientTransport } = await sdk('client/websocket.js');
const sdkVersion = JSON.parse(await readFile(join(sdkDir, 'package.json'), 'utf8')).version;
// the SDK's own ajv, resolved from where the SDK is installed
const fromSdk = createRequire(join(sdkDir, 'package.json'));
const Ajv = fromSdk('ajv').default;
const addFormats = fromSdk('ajv-formats').default;

const CALL_TIMEOUT_MS = 20_000;

/** One tools/call through the SDK: accepted unless the SDK threw (a schema mismatch, a JSON-RPC error). */
async function call(client, label, name, args) {
    const started = Date.now();
    try {
        const result = await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
        return {
            label, tool: name, arguments: args, accepted: true, isError: result.isError === true,
            hasStructuredContent: result.structuredContent !== undefined,
            text: (result.content ?? []).filter(c => c.type === 'text').map(c => c.text).join('\n').slice(0, 300),
            millis: Date.now() - started,
        };
    } catch (error) {
        return {
            label, tool: name, arguments: args, accepted: false, isError: null,
            error: String(error?.message ?? error), code: error?.code ?? null, millis: Date.now() - started,
        };
    }
}

async function connect(transport) {
    const client = new Client({ name: 'omcp-sdk-interop-test', version: '1.0.0' });
    await client.connect(transport);
    const listed = await client.listTools();
    return {
        client,
        strictCompileFailures: strictCompileFailures(listed.tools),
        initialize: {
            server: client.getServerVersion(),
            protocolVersion: transport.protocolVersion ?? null,
        },
        tools: listed.tools.map(t => ({ name: t.name, hasOutputSchema: t.outputSchema !== undefined })),
        nextCursor: listed.nextCursor ?? null,
    };
}

/**
 * The SDK compiles schemas leniently (strict: false): a keyword ajv does not know is ignored, so a
 * misspelt constraint would silently not apply. Stricter clients (ajv's default, strict: true)
 * refuse such a schema outright; every input and output schema must compile there too.
 */
function strictCompileFailures(tools) {
    const ajv = new Ajv({ strict: true, allErrors: true });
    addFormats(ajv);
    const failures = [];
    for (const tool of tools) {
        for (const which of ['inputSchema', 'outputSchema']) {
            if (tool[which] === undefined) {
                continue;
            }
            try {
                ajv.compile(tool[which]);
            } catch (error) {
                failures.push(`${tool.name} ${which}: ${error.message}`);
            }
        }
    }
    return failures;
}

/** Every tool once with arguments that make sense in the demo shop, then the error cases. */
async function everyTool(client) {
    const calls = [];
    const run = async (label, name, args) => calls.push(await call(client, label, name, args));
    await run('list_sources', 'list_sources', {});
    // service names come from the gateway, as an agent would learn them
    const services = await client.callTool({ name: 'list_services', arguments: {} }, undefined, { timeout: CALL_TIMEOUT_MS })
        .then(r => (r.structuredContent?.services ?? []).map(s => s.name))
        .catch(() => []);
    await run('list_services', 'list_services', { limit: 50 });
    const pick = (...wanted) => wanted.find(n => services.includes(n)) ?? services[0] ?? 'payments';
    const database = pick('payments-db');
    const frontend = pick('payments', 'checkout');

    await run('query_metrics', 'query_metrics', { service: database, metric: 'latency_p99', duration: '30m' });
    await run('query_metrics raw', 'query_metrics', { service: frontend, metric: 'http_requests_total', duration: '15m' });
    await run('query_logs', 'query_logs', { service: frontend, duration: '30m', level: 'error', limit: 20 });
    await run('get_service_health', 'get_service_health', { service: database, window: '15m' });
    await run('detect_anomalies', 'detect_anomalies', { window: '15m' });
    await run('get_topology', 'get_topology', { focus: database, depth: 2 });
    await run('get_topology all', 'get_topology', {});
    await run('get_blast_radius', 'get_blast_radius', { service: database });
    await run('get_anomaly_history', 'get_anomaly_history', { window: '1h', limit: 50 });
    await run('enrich_ips', 'enrich_ips', { addresses: ['203.0.113.7', '10.1.2.3', '2001:db8::17', 'not-an-ip'] });
    await run('query_traces', 'query_traces', { service: frontend, errorsOnly: true });
    // the two slowest calls and the error cases are independent of each other: sent at once on the
    // one session, as an agent may, they keep the run short; the report keeps this order
    const rest = await Promise.all([
        ['generate_postmortem', 'generate_postmortem', { service: database, duration: '1h' }],
        ['error: unknown service (postmortem)', 'generate_postmortem', { service: 'no-such-service' }],
        ['error: unknown service (health)', 'get_service_health', { service: 'no-such-service' }],
        ['error: unknown service (metrics)', 'query_metrics', { service: 'no-such-service', metric: 'cpu' }],
        ['error: unknown service (traces)', 'query_traces', { service: 'no-such-service' }],
        ['error: unknown service (blast radius)', 'get_blast_radius', { service: 'no-such-service' }],
        ['error: bad duration', 'query_metrics', { service: database, metric: 'cpu', duration: 'ten minutes' }],
        ['error: duration over the limit', 'query_logs', { service: frontend, duration: '90d' }],
        ['error: missing required argument', 'get_service_health', {}],
    ].map(([label, name, args]) => call(client, label, name, args)));
    calls.push(...rest);
    return { services, calls };
}

async function overHttp() {
    const transport = new StreamableHTTPClientTransport(new URL(httpUrl));
    try {
        const session = await connect(transport);
        const run = await everyTool(session.client);
        await transport.terminateSession().catch(() => {});
        await session.client.close();
        return {
            connected: true, initialize: session.initialize, tools: session.tools, nextCursor: session.nextCursor,
            strictCompileFailures: session.strictCompileFailures, ...run,
        };
    } catch (error) {
        await transport.close().catch(() => {});
        return { connected: false, error: String(error?.stack ?? error) };
    }
}

/** The SDK's WebSocket client (subprotocol "mcp", one JSON-RPC message per text frame) against /mcp/ws. */
async function overWebSocket() {
    const transport = new WebSocketClientTransport(new URL(wsUrl));
    try {
        const session = await connect(transport);
        const calls = [];
        for (const [label, name, args] of [
            ['list_sources', 'list_sources', {}],
            ['get_service_health', 'get_service_health', { service: 'payments-db' }],
            ['error: unknown service (health)', 'get_service_health', { service: 'no-such-service' }],
        ]) {
            calls.push(await call(session.client, label, name, args));
        }
        await session.client.close();
        return { connected: true, initialize: session.initialize, tools: session.tools, calls };
    } catch (error) {
        await transport.close().catch(() => {});
        return { connected: false, error: String(error?.stack ?? error?.message ?? error) };
    }
}

const report = { sdkVersion, http: await overHttp() };
if (wsUrl) {
    report.webSocket = await overWebSocket();
}
process.stdout.write(JSON.stringify(report, null, 1) + '\n');
