import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../../helpers/net.js';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Bytes that are not UTF-8: the start of a PNG. */
export const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0x01]);

/**
 * A small REST API written for the tests of the openapi type, under /v1: parameters in
 * the path, the query, a header and the body; a 404, a 500, an answer that never comes,
 * a text answer, a binary one, and JSON that breaks the schema its document declares.
 */
export async function startNotesApi(t: { teardown(fn: () => unknown): void }): Promise<{ origin: string; seen: SeenRequest[] }> {
  const seen: SeenRequest[] = [];
  const notes = new Map<number, { id: number; title: string; tag: string }>([
    [1, { id: 1, title: 'groceries', tag: 'home' }],
    [2, { id: 2, title: 'invoice', tag: 'work' }],
    [3, { id: 3, title: 'plumber', tag: 'home' }],
  ]);
  const json = (response: ServerResponse, status: number, value: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const url = new URL(request.url ?? '/', 'http://api.invalid');
      const route = `${request.method} ${url.pathname}`;
      const one = /^\/v1\/notes\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'HEAD') return void response.writeHead(200).end();
      if (route === 'GET /v1/notes') {
        const tag = url.searchParams.get('tag');
        const limit = Number(url.searchParams.get('limit') ?? 100);
        return json(response, 200, [...notes.values()].filter((note) => tag === null || note.tag === tag).slice(0, limit));
      }
      if (route === 'POST /v1/notes') {
        const given = JSON.parse(body) as { title: string; tag: string };
        const note = { id: notes.size + 1, title: given.title, tag: given.tag };
        notes.set(note.id, note);
        return json(response, 201, { ...note, requestId: request.headers['x-request-id'] });
      }
      if (one && request.method === 'GET') {
        const note = notes.get(Number(one[1]));
        return note ? json(response, 200, note) : json(response, 404, { error: `no note ${one[1]}` });
      }
      // Echoes what it was sent: the tests of flat arguments read where each one went.
      const replace = /^\/v1\/notes\/([^/]+)\/replace$/.exec(url.pathname);
      if (replace && request.method === 'PUT') return json(response, 200, { id: replace[1], query: url.search, body: JSON.parse(body) as unknown });
      if (one && request.method === 'DELETE') {
        notes.delete(Number(one[1]));
        return void response.writeHead(204).end();
      }
      if (route === 'GET /v1/boom') return void response.writeHead(500, { 'content-type': 'text/plain' }).end('the database is on fire');
      // Never answers: the hub's deadline must end the call.
      if (route === 'GET /v1/slow') return;
      if (route === 'GET /v1/report') return void response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('3 notes, 2 at home');
      if (route === 'GET /v1/logo') return void response.writeHead(200, { 'content-type': 'image/png' }).end(PNG_BYTES);
      if (route === 'GET /v1/stats') return json(response, 200, { count: 'three' });
      json(response, 404, { error: `no route ${route}` });
    });
  });
  const port = await listenOnLoopback(t, server);
  return { origin: `http://127.0.0.1:${port}`, seen };
}

/** The notes API's OpenAPI 3.1 document; its schemas are in a second file (a relative $ref). */
export const NOTES_SPEC = `openapi: 3.1.0
info:
  title: Notes
  version: 1.2.3
  description: Notes of a household.
servers:
  - url: https://notes.example/v1
paths:
  /notes:
    get:
      operationId: listNotes
      summary: List notes
      parameters:
        - { name: tag, in: query, schema: { type: string }, description: Only notes with this tag }
        - { name: limit, in: query, schema: { type: integer, minimum: 1 } }
      responses:
        '200':
          description: The notes
          content:
            application/json:
              schema: { type: array, items: { $ref: './schemas.yaml#/Note' } }
    post:
      operationId: create note!
      summary: Create a note
      parameters:
        - { name: X-Request-Id, in: header, required: true, schema: { type: string } }
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: './schemas.yaml#/NewNote' }
      responses:
        '201':
          description: Created
          content:
            application/json:
              schema:
                allOf:
                  - { $ref: './schemas.yaml#/Note' }
                  - { type: object, properties: { requestId: { type: string } } }
  /notes/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: integer } }
    get:
      operationId: getNote
      summary: One note
      responses:
        '200':
          description: The note
          content: { application/json: { schema: { $ref: './schemas.yaml#/Note' } } }
        '404': { description: No such note }
    put:
      summary: Replace a note
      requestBody:
        content: { application/json: { schema: { $ref: './schemas.yaml#/NewNote' } } }
      responses: { '200': { description: Replaced } }
    delete:
      operationId: deleteNote
      responses: { '204': { description: Deleted } }
  /boom:
    get: { operationId: boom, responses: { '200': { description: never } } }
  /slow:
    get: { operationId: slow, responses: { '200': { description: never in time } } }
  /report:
    get:
      operationId: report
      responses: { '200': { description: A text, content: { text/plain: { schema: { type: string } } } } }
  /logo:
    get:
      operationId: logo
      responses: { '200': { description: An image, content: { image/png: {} } } }
  /stats:
    get:
      operationId: stats
      responses:
        '200':
          description: Counts
          content:
            application/json:
              schema: { type: object, required: [count], properties: { count: { type: integer } } }
  /elsewhere:
    get:
      operationId: elsewhere
      servers: [{ url: 'https://other.example/v1' }]
      responses: { '200': { description: From another origin } }
`;

export const NOTES_SCHEMAS = `Note:
  type: object
  required: [id, title, tag]
  properties:
    id: { type: integer }
    title: { type: string }
    tag: { type: string }
NewNote:
  type: object
  required: [title, tag]
  properties:
    title: { type: string }
    tag: { type: string }
`;
