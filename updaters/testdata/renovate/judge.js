// Judges Terraform constraints as Renovate's hashicorp versioning does,
// with the real node-semver at the version Renovate pins (package.json).
//
// Input, one JSON array a line: [constraint, version, ...]. Output, one
// line each: a letter a version (a allow, r reject, i invalid: the
// constraint is refused, or node-semver cannot read the version), a tab,
// and the index of the version getSatisfyingVersion selects (-1: none).
//
// hashicorp2npm, getExcludedVersions, getFilteredRange, matches (as
// matchesAll, for a whole group) and getSatisfyingVersion are transcribed
// from renovatebot/renovate
// (lib/modules/versioning/hashicorp/convertor.ts and index.ts,
// lib/modules/versioning/common.ts, lib/modules/versioning/npm/index.ts,
// lib/modules/versioning/semver/common.ts normalizeLegacyXRanges), read
// at commit c2dd4f856f068eeda4c10afc3752c35fe1f6cab1; only the logging is
// left out. The semver calls are the real ones.
'use strict';
const path = require('path');
const readline = require('readline');
const semver = require(path.join(process.env.PREREL_SEMVER_DIR || process.argv[2], 'semver'));

const semverRegex = /(0|[1-9]\d*)(\.(0|[1-9]\d*))?(\.(0|[1-9]\d*))?(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?/;

// hashicorp2npm is a pure function of its input: the proof memoizes it,
// since it builds a regular expression a term.
const converted = new Map();
function hashicorp2npm(input) {
  if (!converted.has(input)) {
    try {
      converted.set(input, { value: hashicorp2npmUncached(input) });
    } catch (error) {
      converted.set(input, { error });
    }
  }
  const c = converted.get(input);
  if (c.error) throw c.error;
  return c.value;
}

function hashicorp2npmUncached(input) {
  if (!input) {
    return input;
  }
  return input
    .split(',')
    .map((single) => {
      const r = single.match(
        new RegExp(`^\\s*(?<operator>(|=|!=|>|<|>=|<=|~>))\\s*v?(?<version>${semverRegex.source})\\s*$`),
      );
      if (!r) {
        throw new Error('Invalid hashicorp constraint');
      }
      if (r.groups.operator === '!=') {
        throw new Error('Unsupported hashicorp constraint');
      }
      return { operator: r.groups.operator, version: r.groups.version };
    })
    .map(({ operator, version }) => {
      switch (operator) {
        case '=':
          return version;
        case '~>':
          if (version.match(/^\d+$/)) {
            return `>=${version}`;
          }
          if (version.match(/^\d+\.\d+$/)) {
            return `^${version}`;
          }
          return `~${version}`;
        default:
          return `${operator}${version}`;
      }
    })
    .join(' ');
}

function getExcludedVersions(range) {
  return range
    .split(',')
    .map((v) => v.trim())
    .filter((version) => /^!=/.test(version))
    .map((version) => version.replace('!=', '').trim());
}

function getFilteredRange(range) {
  return range
    .split(',')
    .map((v) => v.trim())
    .filter((version) => !/^!=/.test(version))
    .join(',');
}

// normalizeLegacyXRanges (semver/common.ts), applied by npm's isValid,
// matches and getSatisfyingVersion.
const RANGE_SEPARATOR = /(\s+|,|\|\||[()])/;
const NUMERIC_RELEASE_PART = '(?:0|[1-9]\\d*)';
const RELEASE_PART = `(?:${NUMERIC_RELEASE_PART}|[xX*])`;
const PRERELEASE_IDENTIFIER = `(?:${NUMERIC_RELEASE_PART}|\\d*[A-Za-z-][0-9A-Za-z-]*)`;
const BUILD_IDENTIFIER = '[0-9A-Za-z-]+';
const LEGACY_X_RANGE = new RegExp(
  `^((?:\\^|~|>=|<=|>|<|=)?\\s*v?)(${RELEASE_PART}(?:\\.${RELEASE_PART})+)(?:-${PRERELEASE_IDENTIFIER}(?:\\.${PRERELEASE_IDENTIFIER})*)?(?:\\+${BUILD_IDENTIFIER}(?:[.+]${BUILD_IDENTIFIER})*)?$`,
);
const isSemVerXRange = (r) => ['*', 'x', 'X', ''].includes(r);
const isNumeric = (p) => new RegExp(`^${NUMERIC_RELEASE_PART}$`).test(p);
function normalizeLegacyXRangeToken(input) {
  const match = LEGACY_X_RANGE.exec(input);
  if (!match) return input;
  const [, operator, release] = match;
  const parts = release.split('.');
  if (parts.length > 3) return input;
  const i = parts.findIndex(isSemVerXRange);
  if (i === -1) return input;
  if (!parts.slice(i + 1).some(isNumeric)) return input;
  return `${operator}${parts.slice(0, i + 1).join('.')}`;
}
const normalizeLegacyXRanges = (input) => input.split(RANGE_SEPARATOR).map(normalizeLegacyXRangeToken).join('');

function isValid(input) {
  if (input) {
    try {
      return !!semver.validRange(normalizeLegacyXRanges(hashicorp2npm(input)));
    } catch {
      return false;
    }
  }
  return false;
}

function getSatisfyingVersion(versions, range) {
  const excluded = getExcludedVersions(range);
  const filteredRange = getFilteredRange(range);
  const filtered = versions.filter((v) => !excluded.includes(v));
  return semver.maxSatisfying(filtered, normalizeLegacyXRanges(hashicorp2npm(filteredRange)));
}

// matchesAll is matches for every version of a group: the constraint's
// exclusions, validity and npm range do not depend on the version, and
// semver.satisfies(version, range) is new Range(range).test(version)
// (functions/satisfies.js), so the Range is built once a group.
function matchesAll(versions, range) {
  const excluded = getExcludedVersions(range);
  const filteredRange = getFilteredRange(range);
  let r = null;
  if (isValid(filteredRange)) {
    try {
      r = new semver.Range(normalizeLegacyXRanges(hashicorp2npm(filteredRange)));
    } catch {
      r = null;
    }
  }
  return versions.map((version) => !excluded.includes(version) && r !== null && r.test(version));
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
const out = [];
rl.on('line', (line) => {
  const [constraint, ...versions] = JSON.parse(line);
  const valid = isValid(getFilteredRange(constraint));
  const matched = matchesAll(versions, constraint);
  let letters = '';
  versions.forEach((v, i) => {
    if (!valid || semver.valid(v) === null) letters += 'i';
    else letters += matched[i] ? 'a' : 'r';
  });
  let sel = -1;
  if (valid) {
    const s = getSatisfyingVersion(versions, constraint);
    if (s !== null) sel = versions.indexOf(s);
  }
  out.push(letters + '\t' + sel + '\n');
  if (out.length >= 1000) {
    process.stdout.write(out.join(''));
    out.length = 0;
  }
});
rl.on('close', () => process.stdout.write(out.join('')));
