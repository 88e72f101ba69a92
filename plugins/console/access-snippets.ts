/** Ready-to-paste client settings for a token just minted, for the endpoint it opens first. */
export interface AccessSnippets {
  /** `claude mcp add …` for Claude Code. */
  claudeCode: string;
  /** A `.vscode/mcp.json` for VS Code. */
  vsCode: string;
  /** A v2 SDK client (`@modelcontextprotocol/client`). */
  sdk: string;
}

/**
 * The snippets for `url` with `token`, named `name` in the client. Every value is quoted
 * for where it goes (JSON for the JSON and the script, single quotes for the shell, where a
 * JWT, a URL and a server name need no escape but a quote would end the string).
 */
export function accessSnippets(name: string, url: string, token: string): AccessSnippets {
  const shell = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  const bearer = `Bearer ${token}`;
  return {
    claudeCode: `claude mcp add --transport http ${shell(name)} ${shell(url)} --header ${shell(`Authorization: ${bearer}`)}`,
    vsCode: JSON.stringify({ servers: { [name]: { type: 'http', url, headers: { Authorization: bearer } } } }, null, 2),
    sdk: [
      "import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';",
      '',
      "const client = new Client({ name: 'my-client', version: '1.0.0' });",
      `await client.connect(new StreamableHTTPClientTransport(new URL(${JSON.stringify(url)}), { requestInit: { headers: { Authorization: ${JSON.stringify(bearer)} } } }));`,
      'console.log(await client.listTools());',
    ].join('\n'),
  };
}
