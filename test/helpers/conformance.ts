import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`) against a
 * server URL and reads back its per-scenario result files. The suite needs Node >= 22; it
 * runs on the Node 22 binary installed beside it, whatever Node runs the tests.
 */

export type ConformanceRequirements = '2025-11-25' | '2026-07-28';
export type CheckStatus = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';

/** One check as the suite writes it to a scenario's `checks.json`. */
export interface ConformanceCheck {
  id: string;
  name: string;
  status: CheckStatus;
  description?: string;
  errorMessage?: string;
}

export interface CheckOutcome {
  id: string;
  name: string;
  message: string;
}

/**
 * How a scenario came out: `passed` only when a check ran and succeeded and none failed or
 * warned (the suite itself calls a scenario passed when no check failed, so one that only
 * warned, or whose checks were all skipped or informational, would count as passed there);
 * `warned` when a check warned; `untested` when no check succeeded, failed or warned.
 */
export type ScenarioOutcome = 'passed' | 'warned' | 'untested' | 'failed';

export interface ScenarioResult {
  scenario: string;
  /** False for what the requirement set runs but never scores (extensions, pending scenarios). */
  scored: boolean;
  outcome: ScenarioOutcome;
  /** `outcome === 'passed'`. */
  passed: boolean;
  failures: CheckOutcome[];
  warnings: CheckOutcome[];
  checks: ConformanceCheck[];
}

export interface ConformanceRun {
  requirements: ConformanceRequirements;
  url: string;
  scenarios: ScenarioResult[];
  passed: string[];
  /** Every scenario that did not pass: failed, warned or untested. */
  failed: string[];
  /** The overall timeout ended the suite; scenarios it had not finished count as failed. */
  timedOut: boolean;
  exitCode: number | null;
  durationMs: number;
  /** The end of the suite's own output, for diagnosing a failure. */
  log: string;
}

export interface ConformanceOptions {
  url: string;
  requirements: ConformanceRequirements;
  /** The suite's own per-scenario bound (`--timeout`). */
  scenarioTimeoutMs?: number;
  /** Bound on the whole run; the suite is killed when it is reached. */
  timeoutMs?: number;
}

const LOG_TAIL_CHARS = 20_000;

/**
 * The suite and its Node 22 live in a package of their own (`npm test` installs it), so
 * that node binary never shadows the Node the tests run on.
 */
const SUITE_PACKAGE = fileURLToPath(new URL('../../../conformance-suite/package.json', import.meta.url));

/** The suite's CLI and the Node 22 binary it runs on. */
function conformanceCommand(): { node: string; cli: string } {
  const require = createRequire(SUITE_PACKAGE);
  let cli: string;
  let node: string;
  try {
    cli = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
    node = join(dirname(require.resolve('node/package.json')), 'bin', 'node');
    accessSync(node, constants.X_OK);
  } catch (error) {
    throw new Error(`the conformance suite is not installed in ${dirname(SUITE_PACKAGE)} (npm ci --prefix conformance-suite): ${(error as Error).message}`, { cause: error });
  }
  return { node, cli };
}

export async function runConformanceSuite(options: ConformanceOptions): Promise<ConformanceRun> {
  const { requirements, url, scenarioTimeoutMs = 20_000, timeoutMs = 300_000 } = options;
  const started = Date.now();
  const deadline = started + timeoutMs;
  const planned = await plannedScenarios(requirements, deadline);

  const outputDir = await mkdtemp(join(tmpdir(), 'conformance-'));
  try {
    const run = await runSuite(['server', '--url', url, '--requirements', requirements, '--timeout', String(scenarioTimeoutMs), '-o', outputDir], deadline);
    const written = await readResultFiles(outputDir);
    const scenarios = planned.map(({ scenario, scored }) => scenarioResult(scenario, scored, written.get(scenario), run.timedOut));
    return {
      requirements,
      url,
      scenarios,
      passed: scenarios.filter((result) => result.passed).map((result) => result.scenario),
      failed: scenarios.filter((result) => !result.passed).map((result) => result.scenario),
      timedOut: run.timedOut,
      exitCode: run.code,
      durationMs: Date.now() - started,
      log: run.output.slice(-LOG_TAIL_CHARS),
    };
  } finally {
    await rm(outputDir, { recursive: true, force: true });
  }
}

/** Each requirement set's listing, asked of the suite once per test process: it does not change within a run. */
const listings = new Map<ConformanceRequirements, Promise<Array<{ scenario: string; scored: boolean }>>>();

function plannedScenarios(requirements: ConformanceRequirements, deadline: number): Promise<Array<{ scenario: string; scored: boolean }>> {
  let planned = listings.get(requirements);
  if (!planned) {
    planned = runSuite(['list', '--requirements', requirements], deadline).then((listing) => {
      if (listing.code !== 0 || listing.timedOut) throw new Error(`conformance list --requirements ${requirements} failed (exit ${String(listing.code)}): ${listing.output}`);
      const scenarios = parseScenarioList(listing.output);
      if (scenarios.length === 0) throw new Error(`conformance list --requirements ${requirements} named no server scenarios:\n${listing.output}`);
      return scenarios;
    });
    // A failed listing is not kept: the next run asks again.
    planned.catch(() => listings.delete(requirements));
    listings.set(requirements, planned);
  }
  return planned;
}

interface SuiteProcess {
  code: number | null;
  timedOut: boolean;
  output: string;
}

function runSuite(args: string[], deadline: number): Promise<SuiteProcess> {
  const { node, cli } = conformanceCommand();
  // The test runner's NODE_OPTIONS (loaders, coverage) belong to the tests, not to the suite.
  const { NODE_OPTIONS: _options, NODE_V8_COVERAGE: _coverage, ...env } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(node, [cli, ...args], { env: { ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4 * LOG_TAIL_CHARS);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        child.kill('SIGKILL');
      },
      Math.max(0, deadline - Date.now()),
    );
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut, output });
    });
  });
}

/**
 * The server scenarios of `conformance list --requirements <revision>`: the scored ones
 * under "Server scenarios", the unscored ones tagged `[server]` after "never scored".
 * The listing is the only place the suite states which scenarios a set runs.
 */
function parseScenarioList(listing: string): Array<{ scenario: string; scored: boolean }> {
  const scenarios: Array<{ scenario: string; scored: boolean }> = [];
  let section: 'server' | 'client' | 'unscored' | undefined;
  for (const line of listing.split('\n')) {
    if (line.startsWith('Server scenarios')) section = 'server';
    else if (line.startsWith('Client scenarios')) section = 'client';
    else if (line.startsWith('Run and reported, but never scored')) section = 'unscored';
    const item = /^\s+- (\S+)(?: \[(server|client)\])?\s*$/.exec(line);
    if (!item?.[1]) continue;
    if (section === 'server') scenarios.push({ scenario: item[1], scored: true });
    else if (section === 'unscored' && item[2] === 'server') scenarios.push({ scenario: item[1], scored: false });
  }
  return scenarios;
}

/** `<outputDir>/server-<scenario>-<ISO timestamp>/checks.json`, keyed by scenario. */
async function readResultFiles(outputDir: string): Promise<Map<string, ConformanceCheck[]>> {
  const results = new Map<string, ConformanceCheck[]>();
  for (const entry of await readdir(outputDir)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
    if (!scenario) continue;
    try {
      results.set(scenario, JSON.parse(await readFile(join(outputDir, entry, 'checks.json'), 'utf8')) as ConformanceCheck[]);
    } catch {
      // The directory is made before the scenario runs; no checks.json means it never finished.
    }
  }
  return results;
}

/** A scenario's result from the checks the suite wrote for it (none: it never finished). */
export function scenarioResult(scenario: string, scored: boolean, checks: ConformanceCheck[] | undefined, timedOut = false): ScenarioResult {
  if (!checks) {
    const message = timedOut ? 'the run was stopped by its overall timeout before this scenario finished' : 'the suite wrote no result for this scenario (see the run log)';
    return { scenario, scored, outcome: 'failed', passed: false, failures: [{ id: 'no-result', name: 'NoResult', message }], warnings: [], checks: [] };
  }
  const told = (check: ConformanceCheck): CheckOutcome => ({ id: check.id, name: check.name, message: check.errorMessage ?? check.description ?? '' });
  const failures = checks.filter((check) => check.status === 'FAILURE').map(told);
  const warnings = checks.filter((check) => check.status === 'WARNING').map(told);
  const succeeded = checks.some((check) => check.status === 'SUCCESS');
  const outcome: ScenarioOutcome = failures.length > 0 ? 'failed' : warnings.length > 0 ? 'warned' : succeeded ? 'passed' : 'untested';
  return { scenario, scored, outcome, passed: outcome === 'passed', failures, warnings, checks };
}

/** Passes, warnings (warned or untested) and failures of a run, as the conformance table of docs/reference/mcp-revisions.md states them. */
export function tally(run: ConformanceRun): { passed: number; warned: number; failed: number } {
  const count = (...outcomes: ScenarioOutcome[]) => run.scenarios.filter((result) => outcomes.includes(result.outcome)).length;
  return { passed: count('passed'), warned: count('warned', 'untested'), failed: count('failed') };
}

/** Why each listed scenario did not pass in `run`: its failures, else its warnings, else that no check ran. */
export function describeOutcomes(run: ConformanceRun, scenarios: string[]): string {
  return scenarios
    .map((scenario) => {
      const result = run.scenarios.find((candidate) => candidate.scenario === scenario);
      if (!result) return `${scenario}: did not run`;
      const told = result.failures.length > 0 ? result.failures : result.warnings;
      return `${scenario} (${result.outcome}): ${told.map((check) => `${check.id}: ${check.message}`).join('; ') || 'no check succeeded, failed or warned'}`;
    })
    .join('\n');
}
