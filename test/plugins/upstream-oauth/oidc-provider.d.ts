// The few parts of oidc-provider (which ships no types) that the upstream tests use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface ProviderClient {
    clientId: string;
  }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    on(event: string, listener: (...args: never[]) => void): this;
    Client: { find(id: string): Promise<ProviderClient | undefined> };
    RefreshToken: { find(value: string): Promise<object | undefined> };
  }

  export const errors: { InvalidTarget: new (description?: string) => Error };
  export default Provider;
}
