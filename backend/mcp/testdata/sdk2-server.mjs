// An MCP server on the official TypeScript SDK 2.0 (@modelcontextprotocol/
// server, installed with the npm test servers), serving 2026-07-28 next to
// the old era, over stdio. backend/mcp's tests run it with Node:
//
//	node sdk2-server.mjs <node_modules>
//
// Its tools ask the user through Multi Round-Trip Requests: the SDK returns
// input_required results to a 2026-07-28 client and sends the old era's
// server requests to an old one. "remember" checks that the retry echoes
// its requestState; "open" asks for a URL-mode elicitation.
import path from "node:path";
import { pathToFileURL } from "node:url";

const modules = process.argv[2];
const sdk = await import(pathToFileURL(path.join(modules, "@modelcontextprotocol/server/dist/index.mjs")).href);
const { serveStdio } = await import(pathToFileURL(path.join(modules, "@modelcontextprotocol/server/dist/stdio.mjs")).href);
const { z } = await import(pathToFileURL(path.join(modules, "zod/index.js")).href);
const { McpServer, inputRequired, inputResponse, acceptedContent } = sdk;

// serveStdio picks the era from the client's first message (server/discover
// or initialize) and builds one server for the connection.
serveStdio(() => {
const server = new McpServer({ name: "sdk2-test", version: "2.0.0" });

server.registerTool("greet", {
  description: "Ask the user's name, then greet them",
  inputSchema: z.object({}),
  annotations: { readOnlyHint: true },
}, async (_args, ctx) => {
  const who = acceptedContent(ctx.mcpReq.inputResponses, "who");
  if (!who) {
    const view = inputResponse(ctx.mcpReq.inputResponses, "who");
    if (view.kind === "elicit") {
      return { content: [{ type: "text", text: `the user chose ${view.action}` }] };
    }
    return inputRequired({
      inputRequests: {
        who: inputRequired.elicit({
          message: "What is your name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        }),
      },
      requestState: "greet-1",
    });
  }
  return { content: [{ type: "text", text: `Hello, ${who.name}!` }] };
});

server.registerTool("open", {
  description: "Send the user to a web page",
  inputSchema: z.object({ url: z.string() }),
}, async ({ url }, ctx) => {
  const view = inputResponse(ctx.mcpReq.inputResponses, "page");
  if (view.kind === "elicit") {
    return { content: [{ type: "text", text: `url elicitation: ${view.action}` }] };
  }
  return inputRequired({
    inputRequests: { page: inputRequired.elicitUrl({ message: "Sign in to the example service", url }) },
  });
});

return server;
});
