// Applies Renovate's minimumReleaseAge to candidate releases with
// Renovate's own code: checkMinimumReleaseAge
// (dist/util/minimum-release-age.js), at the defaults of
// dist/config/options/index.js (minimumReleaseAgeBehaviour
// "timestamp-required", minimumReleaseAgeBuffer "30 minutes",
// internalChecksFilter "strict"). The loop that calls it is
// filterInternalChecks (dist/workers/repository/process/lookup/
// filter-checks.js), written out here as judge.mjs writes out
// lookupUpdates: that module imports packages (package rules, merge
// confidence) the proof does not install. With no other check
// configured, its loop is: the candidates newest first, the first one
// not pending taken; when every one is pending, the newest, with
// pendingChecks set under "strict" (no branch is made).
//
// Input, one JSON object a line: {"minimumReleaseAge": "7 days",
// "releases": [[version, ageInMinutes or null], ...]}, the candidates in
// any order. Output, one line each: the version taken, "pending" when
// every candidate is pending, "none" when there is no candidate.
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';

const modules = process.env.PREREL_RENOVATE_DIR || process.argv[2];
if (!modules) {
  console.error('usage: node cooldown.mjs NODE_MODULES_DIR (or set PREREL_RENOVATE_DIR)');
  process.exit(2);
}
const dist = path.join(modules, 'renovate', 'dist');
const load = (file) => import(pathToFileURL(path.join(dist, file)).href);
const { logger } = await load('logger/index.js');
const drop = () => {};
logger.bunyan = { trace: drop, debug: drop, info: drop, warn: drop, error: drop, fatal: drop };
const { api } = await load('modules/versioning/hashicorp/index.js');
const { checkMinimumReleaseAge } = await load('util/minimum-release-age.js');
const { getOptions } = await load('config/options/index.js');

const defaults = Object.fromEntries(getOptions()
  .filter((o) => ['minimumReleaseAgeBehaviour', 'minimumReleaseAgeBuffer', 'internalChecksFilter'].includes(o.name))
  .map((o) => [o.name, o.default]));

const now = Date.now();
const rl = readline.createInterface({ input: process.stdin });
for await (const line of rl) {
  const { minimumReleaseAge, releases } = JSON.parse(line);
  const config = { ...defaults, minimumReleaseAge };
  const sorted = (releases ?? []).map(([version, minutes]) => ({
    version,
    releaseTimestamp: minutes === null ? undefined : new Date(now - minutes * 60000).toISOString(),
  }));
  sorted.sort((a, b) => api.sortVersions(a.version, b.version));
  let release;
  let pendingChecks = false;
  const pending = [];
  for (const candidate of sorted.reverse()) {
    if (checkMinimumReleaseAge(config, candidate.releaseTimestamp).isPending) {
      pending.unshift(candidate);
      continue;
    }
    release = candidate;
    break;
  }
  if (!release && pending.length) {
    release = pending.pop();
    if (config.internalChecksFilter === 'strict') pendingChecks = true;
  }
  console.log(!release ? 'none' : pendingChecks ? 'pending' : release.version);
}
