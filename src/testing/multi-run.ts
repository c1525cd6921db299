// For the project's own tests: several conformance runs in one process and one vitest
// (runConformanceMany, src/run.ts). `tsx src/testing/multi-run.ts <spec.json>`, where the spec is
// [{id, args, env}]: each target's CLI arguments and environment, as `npm run conformance` would
// take them (no .env is read). Each target's reports go to its CATALOGUE_REPORT_DIR, with
// cli-outcome.json: {code, stdout}, the exit code and what the CLI would have printed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig, parseCommandLine } from '../config/config.ts';
import { secrets } from '../http/redact.ts';
import { EXIT, runConformanceMany, type ManyTarget } from '../run.ts';
import { OUTCOME_FILE } from './cli.ts';

export interface MultiRunTarget {
  id: string;
  args: string[];
  env: Record<string, string>;
  /** The rate-limit minute of a reference started with limits.windowMs (ManyTarget.scaledMinuteMs). */
  scaledMinuteMs?: number;
  /** Only the tests that check one of these requirement ids (ManyTarget.requirements). */
  requirements?: string[];
}

async function main(specPath: string): Promise<number> {
  const spec = JSON.parse(readFileSync(specPath, 'utf8')) as MultiRunTarget[];
  const targets: ManyTarget[] = [];
  const failedConfig: { id: string; reportDir: string; message: string }[] = [];
  for (const target of spec) {
    const command = parseCommandLine(target.args);
    const env = { ...process.env, ...target.env };
    try {
      const config = loadConfig({ flags: command.values, env, dotenv: {}, cwd: process.cwd() });
      targets.push({
        id: target.id,
        config,
        filters: command.filters,
        ...(target.scaledMinuteMs ? { scaledMinuteMs: target.scaledMinuteMs } : {}),
        ...(target.requirements ? { requirements: target.requirements } : {}),
      });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      failedConfig.push({ id: target.id, reportDir: env['CATALOGUE_REPORT_DIR'] ?? '.', message: `catalogue-conformance: configuration: ${error.message}` });
    }
  }
  for (const failed of failedConfig) writeFileSync(join(failed.reportDir, OUTCOME_FILE), JSON.stringify({ code: EXIT.ERROR, stdout: failed.message }));
  const outcomes = await runConformanceMany(targets);
  for (const target of targets) {
    const outcome = outcomes.get(target.id)!;
    writeFileSync(join(target.config.reportDir, OUTCOME_FILE), JSON.stringify({ code: outcome.exitCode, stdout: secrets.scrub(outcome.printed) }));
  }
  return 0;
}

main(process.argv[2] ?? '').then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`multi-run: ${secrets.scrub(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
    process.exit(EXIT.ERROR);
  },
);
