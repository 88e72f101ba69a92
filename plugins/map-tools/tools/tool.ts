import type { ProviderSet } from '../providers/types.js';
import type { ToolInput, ToolName, ToolOutput } from '../schemas.js';

/** A tool's input after the schema defaults are applied: the defaulted keys are present. */
export type Defaulted<Name extends ToolName, Keys extends keyof ToolInput<Name>> = ToolInput<Name> & Required<Pick<ToolInput<Name>, Keys>>;

/**
 * The engines, as a tool asks for them: only tools that need them wait for them (an
 * offline extract may still be loading while coordinates need no map at all).
 */
export type Providers = () => Promise<ProviderSet>;

/** What a tool computes; the runner adds `untrusted` and `source` and validates it. */
export type ToolBody<Name extends ToolName> = Omit<ToolOutput<Name>, 'untrusted' | 'source'>;

export interface MapTool<Name extends ToolName = ToolName> {
  name: Name;
  title: string;
  description: string;
  /** `input` has been validated against the input schema and its defaults applied. */
  run(input: never, providers: Providers): Promise<{ summary: string; body: ToolBody<Name> }>;
}

/** Ties a tool's `run` to its schemas' types. */
export function defineTool<Name extends ToolName>(tool: {
  name: Name;
  title: string;
  description: string;
  run(input: ToolInput<Name>, providers: Providers): Promise<{ summary: string; body: ToolBody<Name> }>;
}): MapTool<Name> {
  return tool;
}
