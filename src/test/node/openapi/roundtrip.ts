// A round trip through Engram with a client generated from its OpenAPI document (openapi-typescript's types,
// openapi-fetch's calls), as a user's TypeScript would make it; OpenApiClientTest compiles it with tsc (strict)
// and runs it against a running Engram. The bodies are declared with the document's schemas, so that a member
// named otherwise than on the wire (oldText for old_text) does not compile. It prints one JSON line of what it saw
// and exits 1 on the first surprise.
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/engram.js";

type Problem = components["schemas"]["Problem"];
type Schemas = components["schemas"];

const base = required("ENGRAM_URL");
const store = required("ENGRAM_STORE");
const operator = createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${required("ENGRAM_KEY")}` } });

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set`);
  }
  return value;
}

function check(condition: boolean, what: string, seen: unknown): void {
  if (!condition) {
    console.error(`unexpected ${what}: ${JSON.stringify(seen)}`);
    process.exit(1);
  }
}

function problem(error: Problem | undefined, status: number, slug: string): void {
  check(error !== undefined && error.status === status && error.type === `https://engram.dev/problems/${slug}`,
      `problem (want ${status} ${slug})`, error);
}

async function main(): Promise<void> {
  // A key of the store's own, issued by the operator: 201 with the secret, once.
  const issued = await operator.POST("/v1/keys", {
    body: { name: "openapi-client", grants: [{ stores: store, role: "admin" }] },
  });
  check(issued.response.status === 201 && typeof issued.data?.key === "string", "key issue", issued.data);
  const client = createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${issued.data!.key}` } });
  const where = { params: { path: { store, scope: "user", name: "coding-style" } } };

  const created = await client.PUT("/v1/stores/{store}", {
    params: { path: { store } }, body: { max_entry_bytes: 2048 },
  });
  check(created.response.status === 201 && created.data?.max_entry_bytes === 2048, "store", created.data);

  const entry: Schemas["PutEntry"] = { content: "Tabs, not spaces.", meta: { description: "How code is indented" } };
  const put = await client.PUT("/v1/stores/{store}/scopes/{scope}/entries/{name}", { ...where, body: entry });
  check(put.response.status === 201 && put.data?.entry?.name === "coding-style", "put", put.data);

  const edit: Schemas["PatchEntry"] = { old_text: "Tabs, not spaces", new_text: "Spaces, not tabs" };
  const patched = await client.PATCH("/v1/stores/{store}/scopes/{scope}/entries/{name}", { ...where, body: edit });
  check(patched.response.status === 200 && patched.data?.entry?.content === "Spaces, not tabs.", "patch",
      patched.data);

  const read = await client.GET("/v1/stores/{store}/scopes/{scope}/entries/{name}", where);
  check(read.data?.content === "Spaces, not tabs." && read.data?.meta?.description === "How code is indented",
      "read", read.data);

  const listed = await client.GET("/v1/stores/{store}/scopes/{scope}/entries", {
    params: { path: { store, scope: "user" } },
  });
  check(listed.data?.entries?.map((e) => e.name).join() === "coding-style", "list", listed.data);

  // A tool call whose arguments are typed by the tool's own input schema.
  const search: Schemas["MemorySearchArguments"] = { query: "spaces", limit: 3 };
  const call: Schemas["CallBody"] = { name: "memory_search", arguments: search, scopes: ["user"] };
  const searched = await client.POST("/v1/stores/{store}/tools/call", { params: { path: { store } }, body: call });
  check(searched.data?.is_error === false && (searched.data?.output ?? "").includes("coding-style"), "tool call",
      searched.data);

  // Refusals come back as the document's problem.
  const unknown = await client.PATCH("/v1/stores/{store}/scopes/{scope}/entries/{name}", {
    ...where, body: { old_text: "no such text", new_text: "x" },
  });
  check(unknown.response.status === 422, "patch of absent text", unknown.error);
  const missing = await client.GET("/v1/stores/{store}/scopes/{scope}/entries/{name}", {
    params: { path: { store, scope: "user", name: "never-saved" } },
  });
  problem(missing.error, 404, "not-found");
  const anonymous = await createClient<paths>({ baseUrl: base }).GET("/v1/stores/{store}", {
    params: { path: { store } },
  });
  problem(anonymous.error, 401, "unauthorized");

  console.log(JSON.stringify({
    store: created.data?.id, content: read.data?.content, listed: listed.data?.entries?.length,
    patch_refused: (unknown.error as Problem | undefined)?.rule ?? null,
  }));
}

await main();
