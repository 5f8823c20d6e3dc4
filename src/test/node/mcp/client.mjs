// Drives Engram's MCP endpoints with the MCP TypeScript SDK, as a user's agent would. Run by
// dev.engram.mcp.McpNodeClientsTest: `node client.mjs <scenario>`, with ENGRAM_URL, ENGRAM_KEY and ENGRAM_STORE set.
// Prints one JSON object per line, which the test reads; a line {"waiting": ...} asks the test to act (a REST write).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const base = process.env.ENGRAM_URL.replace(/\/$/, "");
const key = process.env.ENGRAM_KEY;
const store = process.env.ENGRAM_STORE;
const auth = { Authorization: `Bearer ${key}` };
const out = (o) => console.log(JSON.stringify(o));

async function connect(transport) {
  const client = new Client({ name: "engram-node-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

function text(result) {
  return { isError: result.isError === true, text: result.content?.[0]?.text };
}

const scenarios = {
  // Streamable HTTP: instructions, the tools and their schemas, a save and a search, then a subscription that
  // must be told of a write the test makes over REST.
  async streamable() {
    const url = new URL(`${base}/mcp?store=${store}&scope=user&scope=project&read_scope=rules&bank=user:alice`);
    const client = await connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: auth } }));
    out({ instructions: client.getInstructions() ?? null, server: client.getServerVersion(),
      capabilities: client.getServerCapabilities() });
    const tools = (await client.listTools()).tools;
    out({ tools: tools.map((t) => t.name).sort(), schemas: Object.fromEntries(tools.map((t) => [t.name, t.inputSchema])) });
    out({ save: text(await client.callTool({ name: "memory_save", arguments: { scope: "project", name: "deploys",
      content: "Deploys wait for review.", meta: { description: "How deploys go" } } })) });
    out({ search: text(await client.callTool({ name: "memory_search", arguments: { query: "review" } })) });
    const notices = [];
    let told = null;
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      notices.push(n.params.uri);
      told?.();
    });
    // The next notice, or null when none comes in 20 s (so a server that never notifies fails the test, not hangs it)
    const next = () => new Promise((resolve) => {
      if (notices.length) {
        resolve(notices.shift());
        return;
      }
      const none = setTimeout(() => { told = null; resolve(null); }, 20000);
      told = () => { clearTimeout(none); told = null; resolve(notices.shift()); };
    });
    out({ subscribe: await client.subscribeResource({ uri: "memory://block" }) });
    out({ waiting: "rest-write" });
    out({ updated: await next() });
    notices.length = 0;
    out({ waiting: "other-replica" });
    out({ updatedByOtherReplica: await next() });
    out({ block: (await client.readResource({ uri: "memory://block" })).contents[0].text });
    try {
      await client.complete({ ref: { type: "ref/resource", uri: "memory://block" }, argument: { name: "x", value: "" } });
      out({ complete: "answered" });
    } catch (e) {
      out({ complete: { code: e.code, message: e.message } });
    }
    try {
      await client.subscribeResource({ uri: "memory://elsewhere" });
      out({ subscribeElsewhere: "answered" });
    } catch (e) {
      out({ subscribeElsewhere: { code: e.code, message: e.message } });
    }
    await client.close();
  },

  // The legacy SSE transport, with the store, scope and bank in the query of the SSE URL only.
  async sse() {
    const url = new URL(`${base}/mcp/sse?store=${store}&scope=user&bank=user:alice`);
    const options = () => ({ requestInit: { headers: auth },
      eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...init?.headers, ...auth } }) } });
    const raw = new SSEClientTransport(url, options());
    await raw.start();
    try {
      await raw.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
      out({ legacyBeforeInitialize: "accepted" });
    } catch (e) {
      out({ legacyBeforeInitialize: String(e.message) });
    }
    await raw.close();
    const client = await connect(new SSEClientTransport(url, options()));
    out({ instructions: client.getInstructions() ?? null });
    out({ tools: (await client.listTools()).tools.map((t) => t.name).sort() });
    out({ save: text(await client.callTool({ name: "memory_save", arguments: { name: "tea",
      content: "Alice drinks tea.", meta: { description: "Drinks" } } })) });
    out({ remember: text(await client.callTool({ name: "memory_remember", arguments: {
      content: "Alice prefers green tea." } })) });
    await client.close();
  },

  // What a client meets when it gets the protocol wrong, over plain HTTP.
  async errors() {
    const post = async (path, body, headers) => {
      const r = await fetch(`${base}${path}`, { method: "POST", body: JSON.stringify(body),
        headers: { ...auth, "Content-Type": "application/json", ...headers } });
      const t = await r.text();
      let json = null;
      try { json = JSON.parse(t); } catch { /* not JSON */ }
      return { status: r.status, type: r.headers.get("content-type"), body: json ?? t };
    };
    const accept = { Accept: "application/json, text/event-stream" };
    const mcp = `/mcp?store=${store}`;
    out({ noAccept: await post(mcp, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { Accept: "application/json" }) });
    out({ beforeInitialize: await post(mcp, { jsonrpc: "2.0", id: 2, method: "tools/list" }, accept) });
    out({ discover: await post(mcp, { jsonrpc: "2.0", id: 3, method: "server/discover", params: { _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } },
      { ...accept, "Mcp-Protocol-Version": "2026-07-28" }) });
    out({ newVersionHeader: await post(mcp, { jsonrpc: "2.0", id: 4, method: "tools/list" },
      { ...accept, "Mcp-Protocol-Version": "2026-07-28" }) });
    const init = await fetch(`${base}${mcp}`, { method: "POST", headers: { ...auth, ...accept,
      "Content-Type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "initialize",
      params: { protocolVersion: "2026-07-28", capabilities: {}, clientInfo: { name: "probe", version: "1" } } }) });
    const initText = await init.text();
    const data = initText.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5)).pop() ?? initText;
    out({ initializeNewest: { status: init.status, result: JSON.parse(data).result?.protocolVersion } });
    const wk = await fetch(`${base}/.well-known/oauth-protected-resource`);
    out({ wellKnown: { status: wk.status, body: await wk.json() } });
    const wkMcp = await fetch(`${base}/.well-known/oauth-protected-resource/mcp`);
    out({ wellKnownMcp: { status: wkMcp.status } });
  },
};

const scenario = scenarios[process.argv[2]];
if (!scenario) {
  console.error(`unknown scenario ${process.argv[2]}; one of ${Object.keys(scenarios).join(", ")}`);
  process.exit(2);
}
try {
  await scenario();
  out({ done: true });
  process.exit(0);
} catch (e) {
  out({ failed: String(e?.stack ?? e) });
  process.exit(1);
}
