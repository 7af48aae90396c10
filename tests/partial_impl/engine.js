#!/usr/bin/env node
// An independent, partial Linguomancy implementation: check, attack and save
// only. Written from the golden suite alone (README.md, RULES.json and the
// schemas/ copy of an exported suite: `linguo golden export DIR`), without
// linguo's code. It is the acceptance test of issue 18: run by
// tests/test_conformance_partial.py through `linguo verify` in plain mode
// (`--kinds check,attack,save`) and batch mode (the hello declares the kinds).
//
// Usage: node engine.js --suite DIR [--batch] [--outside unsupported|exit3]
//                       [--log FILE] [--no-declare]
//   --suite DIR    an exported (JSON) golden suite: RULES.json, schemas/
//   --outside      what to answer to a kind it does not implement: the
//                  reserved "unsupported" answer (default) or exit 3 (a trap:
//                  verify must never count those as passed)
//   --log FILE     append every request kind received, one per line
//   --no-declare   batch hello without the rulesets declaration
'use strict';

const fs = require('fs');
const path = require('path');

const KINDS = ['check', 'attack', 'save'];
// The rule IDs whose statements this engine was written from (RULES.json).
const RELIES_ON = ['D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'D7', 'A1', 'A2', 'A3', 'A4',
                   'S1', 'S2', 'S3'];
const MIN_WORDS = 12;

function parseArgs(argv) {
  const opts = { batch: false, outside: 'unsupported', log: null, declare: true, suite: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--batch') opts.batch = true;
    else if (a === '--no-declare') opts.declare = false;
    else if (a === '--suite') opts.suite = argv[++i];
    else if (a === '--outside') opts.outside = argv[++i];
    else if (a === '--log') opts.log = argv[++i];
    else throw new Error(`unknown argument ${a}`);
  }
  if (!opts.suite) throw new Error('--suite DIR is required');
  return opts;
}

class Refusal extends Error {
  constructor(exit, message, rule) {
    super(message);
    this.exit = exit;
    this.rule = rule || null;
  }
}

// ---------------------------------------------------------------------------
// The rules text: RULES.json must state every rule relied on; D4's bands are
// read from its statement ("m of 10 or more is critical_success; ...").

function loadRules(suite) {
  let data;
  try {
    data = JSON.parse(fs.readFileSync(path.join(suite, 'RULES.json'), 'utf8'));
  } catch (e) {
    throw new Error(`cannot read the suite's rules (RULES.json): ${e.message}`);
  }
  const byId = new Map((data.rules || []).map((r) => [r.id, r]));
  for (const id of RELIES_ON) {
    const st = (byId.get(id) || {}).statement || '';
    if (st.split(/\s+/).filter(Boolean).length < MIN_WORDS) {
      throw new Error(`RULES.json gives no full statement of ${id}: cannot implement it`);
    }
  }
  return { bands: degreeBands(byId.get('D4').statement) };
}

const DEGREES = ['critical_failure', 'failure', 'partial_failure', 'partial_success',
                 'success', 'critical_success'];

function degreeBands(statement) {
  // Each clause "m ... is DEGREE" gives a band; its lowest number is the lower
  // bound, "or less" means no lower bound.
  const bands = [];
  for (const clause of statement.split(/;|:/)) {
    const m = clause.match(/\bm\b(.*?)\bis (critical_failure|failure|partial_failure|partial_success|success|critical_success)\b/);
    if (!m) continue;
    const nums = (m[1].match(/-?\d+/g) || []).map(Number);
    if (!nums.length) continue;
    const low = /or less/.test(m[1]) ? -Infinity : Math.min(...nums);
    bands.push({ low, degree: m[2] });
  }
  if (new Set(bands.map((b) => b.degree)).size !== 6) {
    throw new Error('the D4 statement does not give the six degree bands');
  }
  return bands.sort((a, b) => b.low - a.low);
}

// ---------------------------------------------------------------------------
// A JSON Schema subset (what the suite's request schemas use).

function loadSchemas(suite) {
  const dir = path.join(suite, 'schemas');
  const byId = new Map();
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith('.schema.json')) continue;
    const s = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    byId.set(s.$id, s);
  }
  return byId;
}

function typeOf(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function resolveRef(ref, doc, schemas) {
  const [base, frag] = ref.split('#');
  const target = base ? schemas.get(base) : doc;
  if (!target) throw new Error(`unknown schema ${base}`);
  let node = target;
  for (const part of (frag || '').split('/').filter(Boolean)) node = node[part];
  return { node, doc: target };
}

function validate(v, s, doc, schemas, where, errors) {
  if (s.$ref) {
    const r = resolveRef(s.$ref, doc, schemas);
    validate(v, r.node, r.doc, schemas, where, errors);
  }
  const t = typeOf(v);
  if (s.type) {
    const types = [].concat(s.type);
    if (!types.includes(t) && !(t === 'integer' && types.includes('number'))) {
      errors.push(`${where}: expected ${types.join('|')}`);
      return;
    }
  }
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(v)) errors.push(`${where}: const`);
  if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) errors.push(`${where}: enum`);
  if (t === 'integer' || t === 'number') {
    if ('minimum' in s && v < s.minimum) errors.push(`${where}: below ${s.minimum}`);
    if ('maximum' in s && v > s.maximum) errors.push(`${where}: above ${s.maximum}`);
  }
  if (t === 'string') {
    if ('minLength' in s && v.length < s.minLength) errors.push(`${where}: too short`);
    if ('maxLength' in s && v.length > s.maxLength) errors.push(`${where}: too long`);
    if (s.pattern && !new RegExp(s.pattern, 'u').test(v)) errors.push(`${where}: pattern`);
  }
  if (t === 'array') {
    if ('maxItems' in s && v.length > s.maxItems) errors.push(`${where}: too many items`);
    if ('minItems' in s && v.length < s.minItems) errors.push(`${where}: too few items`);
    if (s.items) v.forEach((x, i) => validate(x, s.items, doc, schemas, `${where}[${i}]`, errors));
  }
  if (t === 'object') {
    for (const k of s.required || []) if (!(k in v)) errors.push(`${where}: ${k} missing`);
    const props = s.properties || {};
    if ('maxProperties' in s && Object.keys(v).length > s.maxProperties) errors.push(`${where}: too many keys`);
    for (const [k, x] of Object.entries(v)) {
      if (s.propertyNames) validate(k, s.propertyNames, doc, schemas, `${where}.${k} (name)`, errors);
      if (k in props) validate(x, props[k], doc, schemas, `${where}.${k}`, errors);
      else if (s.additionalProperties === false) errors.push(`${where}: unknown key ${k}`);
      else if (typeof s.additionalProperties === 'object') {
        validate(x, s.additionalProperties, doc, schemas, `${where}.${k}`, errors);
      }
    }
  }
  const passes = (sub) => { const e = []; validate(v, sub, doc, schemas, where, e); return !e.length; };
  if (s.oneOf && s.oneOf.filter(passes).length !== 1) errors.push(`${where}: oneOf`);
  if (s.anyOf && !s.anyOf.some(passes)) errors.push(`${where}: anyOf`);
  if (s.allOf) s.allOf.forEach((sub) => validate(v, sub, doc, schemas, where, errors));
  if (s.not && passes(s.not)) errors.push(`${where}: not`);
}

// ---------------------------------------------------------------------------
// The d20 test (D1-D7, A1-A4, S1-S3)

const PUBLISHED = { smith: ['shape', 'flux'], creator: ['speak', 'flux'] }; // D7

function verbNoun(name) {
  const i = name.indexOf(' - ');
  if (i >= 0) return [name.slice(0, i).trim().toLowerCase(), name.slice(i + 3).trim().toLowerCase()];
  return PUBLISHED[name.trim().toLowerCase()] || null;
}

function abilityModifier(entity, ability) { // D6
  if (entity && entity.abilities && ability in entity.abilities) return entity.abilities[ability];
  if (entity && entity.ability_scores && ability in entity.ability_scores) {
    return Math.floor((entity.ability_scores[ability] - 10) / 2);
  }
  return null;
}

// Linguomancy's options (golden/README.md, Options): name -> JSON type, rule.
const OPTIONS = { partial_success_hits: { type: 'boolean', rule: 'A1' } };

function optionsOf(req) {
  const given = req.options || {};
  for (const [name, value] of Object.entries(given)) {
    const option = OPTIONS[name];
    if (!option) throw new Refusal(3, `unknown option ${name}`);
    if (typeof value !== option.type) throw new Refusal(3, `bad value for ${name}`, option.rule);
  }
  return given;
}

function resolveTest(req, rules) {
  const kind = req.kind;
  const options = optionsOf(req);
  const entity = req.entity;
  const modifiers = (req.modifiers || []).map((m) => ({ label: m.label || 'modifier', value: m.value }));
  let automatic = null;
  if (req.ability) {
    const mod = abilityModifier(entity, req.ability);
    if (mod !== null) modifiers.unshift({ label: req.ability, value: mod });
    else if (kind === 'save' && entity) automatic = 'S2';
    else throw new Refusal(3, `no modifier or score for ${req.ability}`);
  }
  if (kind === 'save' && req.no_ability) automatic = 'S2';
  if (req.noun) { // D7
    const known = (entity && entity.idioms) || [];
    const ok = known.some((n) => {
      const vn = verbNoun(n);
      return vn && (vn[0] === 'speak' || vn[0] === 'shape') && vn[1] === req.noun.toLowerCase();
    });
    if (!ok) throw new Refusal(4, `a check about ${req.noun} needs Speak or Shape - ${req.noun}`, 'D7');
  }
  let target = null;
  if (kind === 'check') target = req.dc;
  if (kind === 'save') target = req.idiom_dc ? 10 + req.idiom_dc.flux_cost + req.idiom_dc.potential : req.dc;
  if (kind === 'attack') {
    const ac = req.ac;
    if (ac === null) automatic = 'A3';
    else if (typeof ac === 'object') {
      target = ('armour' in ac ? ac.armour : 10) + (ac.signature || 0) + (ac.shield || 0)
        + (ac.other || []).reduce((s, m) => s + m.value, 0);
    } else target = ac;
  }
  const modifierTotal = modifiers.reduce((s, m) => s + m.value, 0);
  const rolls = req.rolls || [];
  const adv = !!req.advantage;
  const dis = !!req.disadvantage;
  const needed = automatic ? 0 : (adv !== dis ? 2 : 1);
  if (rolls.length !== needed) throw new Refusal(3, `${needed} face(s) needed, ${rolls.length} given`);
  if (rolls.some((f) => f < 1 || f > 20)) throw new Refusal(3, 'a d20 face must be 1-20');
  const out = { kind, faces: [], natural: null, modifiers, modifier_total: modifierTotal,
                total: null, target, margin: null, unadjusted_degree: null, degree: null,
                shift: null, success: false };
  if (automatic) {
    const degree = automatic === 'A3' ? 'success' : 'failure';
    Object.assign(out, { unadjusted_degree: degree, degree, success: degree === 'success' });
  } else {
    let keep = 0;
    if (needed === 2) keep = (adv ? rolls[1] > rolls[0] : rolls[1] < rolls[0]) ? 1 : 0;
    out.faces = rolls.map((f, i) => ({ die: 20, face: f, kept: i === keep }));
    out.natural = rolls[keep];
    out.total = out.natural + modifierTotal;
    out.margin = out.total - target;
    const band = rules.bands.find((b) => out.margin >= b.low);
    out.unadjusted_degree = band.degree;
    let step = DEGREES.indexOf(band.degree);
    if (out.natural === 20) { out.shift = 'natural_20'; step = Math.min(step + 1, 5); }
    if (out.natural === 1) { out.shift = 'natural_1'; step = Math.max(step - 1, 0); }
    out.degree = DEGREES[step];
    out.success = out.degree === 'success' || out.degree === 'critical_success';
  }
  if (kind === 'attack') {
    const setting = 'partial_success_hits' in req ? req.partial_success_hits
      : options.partial_success_hits; // the request's own field wins over options
    const partialHits = !!setting && out.degree === 'partial_success';
    out.hit = out.success || partialHits;
    out.critical_hit = automatic ? false : out.degree === 'critical_success';
    out.critical_miss = out.degree === 'critical_failure';
  }
  out.rules = [];
  out.explanation = [];
  out.rolls_used = rolls.slice();
  return out;
}

// ---------------------------------------------------------------------------
// The adapter protocol

function makeEngine(opts) {
  const rules = loadRules(opts.suite);
  const schemas = loadSchemas(opts.suite);
  return (req) => {
    if (opts.log) fs.appendFileSync(opts.log, `${req && req.kind}\n`);
    if (typeOf(req) !== 'object') throw new Refusal(3, 'a request is an object');
    if (!KINDS.includes(req.kind)) {
      if (opts.outside === 'exit3') throw new Refusal(3, `kind ${req.kind}: not handled`);
      return { unsupported: true, reason: `this engine implements ${KINDS.join(', ')} only` };
    }
    const errors = [];
    const schema = schemas.get(`urn:linguo:${req.kind}-request`);
    validate(req, schema, schema, schemas, 'request', errors);
    if (errors.length) throw new Refusal(3, errors[0]);
    return resolveTest(req, rules);
  };
}

function errorObject(e) {
  return { exit: e.exit, code: null, rule: e.rule, place: null, message: e.message };
}

function plain(opts) {
  let engine;
  try { engine = makeEngine(opts); } catch (e) {
    process.stderr.write(`engine: ${e.message}\n`);
    process.exit(2);
  }
  const text = fs.readFileSync(0, 'utf8');
  try {
    const answer = engine(JSON.parse(text));
    if (answer.unsupported) {
      process.stderr.write(`engine: unsupported: ${answer.reason}\n`);
      process.exit(69);
    }
    process.stdout.write(JSON.stringify(answer) + '\n');
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    process.stdout.write(JSON.stringify({ error: errorObject(e) }) + '\n');
    process.stderr.write(`engine: error: ${e.message}\n`);
    process.exitCode = e.exit;
  }
}

function batch(opts) {
  const readline = require('readline');
  const rl = readline.createInterface({ input: process.stdin });
  let engine = null;
  let first = true;
  const send = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
  rl.on('line', (line) => {
    if (!line.trim()) return;
    if (first) {
      first = false;
      try { engine = makeEngine(opts); } catch (e) {
        send({ ready: false, reason: e.message });
        return;
      }
      const hello = { ready: true, implementation: 'partial-node-engine' };
      if (opts.declare) hello.rulesets = { linguomancy: { kinds: KINDS } };
      send(hello);
      return;
    }
    try {
      send(engine(JSON.parse(line)));
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      send({ error: errorObject(e) });
    }
  });
}

const opts = parseArgs(process.argv.slice(2));
if (opts.batch) batch(opts); else plain(opts);
