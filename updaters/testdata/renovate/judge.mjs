// Judges Terraform constraints with Renovate's own code: the published
// npm package renovate (its version is package.json's "renovate" field),
// whose dist/modules/versioning/hashicorp/index.js is the versioning
// Renovate's terraform manager reads constraints with, and whose
// dist/workers/repository/process/lookup/current.js, filter.js and
// bucket.js decide, in the lookup, the version a dependency is at, the
// candidates above it and the updates proposed.
//
// Input, one JSON array a line: [constraint, version, ...]. Output, one
// line a group, fields separated by tabs:
//
//   letters    a letter a version: a allow, r reject, i invalid (isValid
//              refuses the constraint, or isVersion the version)
//   current    the index of the version the lookup finds the dependency
//              at, with no lock file (resolveCurrentVersion); -1 for none,
//              or for a version that is not listed
//   proposal   the index of the newest version the lookup proposes with
//              no lock file; -1 for none
//   locked     the index of the version taken as locked: the line's
//              number (from 0) modulo the number of versions (an empty
//              one is taken as none locked, as prerel reads it)
//   proposal   the index of the newest version the lookup proposes with
//              that version locked; -1 for none
//
// The calls into Renovate's modules are the real ones. What joins them is
// lookupUpdates (dist/workers/repository/process/lookup/index.js), which
// cannot run without a datasource; this script follows it for the
// terraform manager's defaults (rangeStrategy "auto", which
// getRangeStrategy turns into "update-lockfile" for a manager with
// updateLockedDependency; ignoreUnstable, ignoreDeprecated,
// respectLatest and separateMajorMinor on, no tag "latest" from the
// terraform datasources, no minimumReleaseAge or minimumConfidence), with
// these parts written out here:
//
//   - lookupUpdates: the isValid gate (skipReason "invalid-value"), the
//     loop over the buckets and its checks of newValue (no update when it
//     is empty or the constraint itself and nothing is locked; "Unexpected
//     downgrade detected");
//   - filterInternalChecks (filter-checks.js): with no check configured,
//     the newest release of the bucket;
//   - generateUpdate (generate.js): newValue from getNewValue, the
//     constraint itself when getNewValue throws, isLockfileUpdate;
//   - stripNoopUpdates (utils.js);
//   - filterValidVersions and sortAndRemoveDuplicates
//     (dist/modules/datasource/common.js), which the datasource layer
//     applies to the releases before the lookup sees them.
//
// Renovate's logger is given a sink that drops every line: it otherwise
// queues them until Renovate's own start-up initializes it.
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';

const modules = process.env.PREREL_RENOVATE_DIR || process.argv[2];
if (!modules) {
  console.error('usage: node judge.mjs NODE_MODULES_DIR (or set PREREL_RENOVATE_DIR)');
  process.exit(2);
}
const dist = path.join(modules, 'renovate', 'dist');
const load = (file) => import(pathToFileURL(path.join(dist, file)).href);

const { logger } = await load('logger/index.js');
const drop = () => {};
logger.bunyan = { trace: drop, debug: drop, info: drop, warn: drop, error: drop, fatal: drop };

const { api } = await load('modules/versioning/hashicorp/index.js');
const { resolveCurrentVersion } = await load('workers/repository/process/lookup/current.js');
const { filterVersions } = await load('workers/repository/process/lookup/filter.js');
const { groupReleasesIntoBuckets } = await load('workers/repository/process/lookup/bucket.js');

// The configuration lookupUpdates reads, at the defaults of
// dist/config/options/index.js for the terraform manager.
const config = {
  ignoreUnstable: true,
  ignoreDeprecated: true,
  respectLatest: true,
  separateMajorMinor: true,
  separateMultipleMajor: false,
  separateMultipleMinor: false,
  separateMinorPatch: false,
};
const rangeStrategy = 'update-lockfile';

// filterValidVersions, then sortAndRemoveDuplicates.
function releasesOf(versions) {
  const releases = versions.filter((v) => api.isVersion(v)).map((version) => ({ version }));
  releases.sort((a, b) => api.sortVersions(a.version, b.version));
  let previous = null;
  return releases.filter((r) => {
    if (previous === r.version) return false;
    previous = r.version;
    return true;
  });
}

// lookup is lookupUpdates for a dependency whose constraint is
// currentValue, at lockedVersion (undefined: no lock file), with these
// releases: the version it is at, and the newVersion of each update.
// matched holds answers of api.matches(version, currentValue).
function lookup(currentValue, lockedVersion, releases, matched) {
  const res = { currentVersion: null, updates: [] };
  if (!api.isValid(currentValue)) return res; // skipReason "invalid-value"
  if (releases.length === 0) return res;
  const known = {
    ...api,
    matches: (version, range) => (range === currentValue && matched.has(version) ? matched.get(version) : api.matches(version, range)),
  };
  const currentVersion = resolveCurrentVersion(currentValue, lockedVersion, known, rangeStrategy, undefined, releases);
  if (!currentVersion) return res;
  res.currentVersion = currentVersion;
  if (!api.isVersion(currentVersion)) return res; // skipReason "invalid-version"
  const filtered = filterVersions(config, currentVersion, undefined, releases, api).filter((v) => api.isCompatible(v.version, currentValue));
  const buckets = groupReleasesIntoBuckets(config, currentVersion, filtered, api);
  const updates = [];
  for (const bucketReleases of Object.values(buckets)) {
    const sorted = bucketReleases.sort((r1, r2) => api.sortVersions(r1.version, r2.version));
    const newVersion = sorted.at(-1).version;
    let newValue;
    try {
      newValue = api.getNewValue({ currentValue, rangeStrategy, currentVersion: lockedVersion ?? currentVersion, newVersion });
    } catch {
      newValue = currentValue;
    }
    const isLockfileUpdate = currentValue === newValue;
    if (!newValue || newValue === currentValue) {
      if (!lockedVersion) continue;
    }
    if (newValue && api.isVersion(newValue) && api.isVersion(currentValue) && api.isGreaterThan(currentValue, newValue)) continue;
    updates.push({ newVersion, newValue, isLockfileUpdate });
  }
  res.updates = updates.filter((u) => u.newValue !== null).filter((u) => u.newValue !== currentValue || u.isLockfileUpdate === true);
  return res;
}

function newest(updates) {
  let best = null;
  for (const u of updates) {
    if (best === null || api.isGreaterThan(u.newVersion, best)) best = u.newVersion;
  }
  return best;
}

const index = (versions, v) => (v === null ? -1 : versions.indexOf(v));

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
const out = [];
let line = 0;
rl.on('line', (text) => {
  const [constraint, ...versions] = JSON.parse(text);
  const valid = api.isValid(constraint);
  // matches is a function of its arguments: the group's answers are
  // kept for the lookup, which asks them again.
  const matched = new Map();
  let letters = '';
  for (const v of versions) {
    if (!valid || !api.isVersion(v)) letters += 'i';
    else {
      if (!matched.has(v)) matched.set(v, api.matches(v, constraint));
      letters += matched.get(v) ? 'a' : 'r';
    }
  }
  const releases = releasesOf(versions);
  const free = lookup(constraint, undefined, releases, matched);
  const locked = versions.length > 0 ? line % versions.length : -1;
  // prerel's Propose reads an empty current version as none locked.
  const held = locked >= 0 ? lookup(constraint, versions[locked] || undefined, releases, matched) : { updates: [] };
  out.push([letters, index(versions, free.currentVersion), index(versions, newest(free.updates)), locked, index(versions, newest(held.updates))].join('\t') + '\n');
  line++;
  if (out.length >= 1000) {
    process.stdout.write(out.join(''));
    out.length = 0;
  }
});
rl.on('close', () => process.stdout.write(out.join('')));
