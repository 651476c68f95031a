// check-responses.mjs OPENAPI RECORD: holds every answer the end-to-end
// tests received (one JSON line each, written by tests/support/e2e.c) against
// the response schema openapi.yaml declares for its path, method and status.
// Lines with "item" hold what else the suites saw: "stream" an item of an
// event stream (an Event when it has a kind, else a PlayerStreamItem), and
// "webhook" a Standard Webhooks delivery (tests/node/webhook-receiver.mjs),
// its body held against the webhooks: entry of its type and its headers
// against that entry's parameters.
// Prints one line per kind of mismatch and exits non-zero on any.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

const [specPath, recordPath] = process.argv.slice(2);
const spec = YAML.parse(readFileSync(specPath, 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);
ajv.addSchema(spec, 'openapi.json');

const pointer = (parts) =>
  'openapi.json#/' + parts.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

const templates = Object.keys(spec.paths).map((template) => ({
  template,
  regex: new RegExp('^' + template.replace(/\{[^}]+\}/g, '[^/]+') + '$'),
}));

const validators = new Map();
function validatorFor(template, method, status) {
  const key = `${method} ${template} ${status}`;
  if (validators.has(key)) return validators.get(key);
  const operation = spec.paths[template]?.[method];
  let response = operation?.responses?.[status];
  let at = ['paths', template, method, 'responses', status];
  if (response?.$ref) {
    const name = response.$ref.split('/').pop();
    response = spec.components.responses[name];
    at = ['components', 'responses', name];
  }
  let validate = null;
  if (response) {
    const json = response.content?.['application/json'];
    validate = json ? ajv.compile({ $ref: pointer([...at, 'content', 'application/json', 'schema']) }) : () => true;
  }
  validators.set(key, validate);
  return validate;
}

let errorValidator = null;
function validatorFor404() {
  errorValidator ??= ajv.compile({ $ref: pointer(['components', 'schemas', 'Error']) });
  return errorValidator;
}

const schemaValidators = new Map();
function validatorOf(at) {
  const key = at.join(' ');
  if (!schemaValidators.has(key)) schemaValidators.set(key, ajv.compile({ $ref: pointer(at) }));
  return schemaValidators.get(key);
}
const resolve = (p) => (p.$ref ? spec.components.parameters[p.$ref.split('/').pop()] : p);

// What an item is wrong in, or null when it matches.
function itemProblem(seen) {
  const say = (validate, what) =>
    validate(seen.json) ? null : `${what}: ${validate.errors[0].instancePath || '/'} ${validate.errors[0].message}`;
  if (seen.item === 'stream') {
    const name = seen.json && 'kind' in seen.json ? 'Event' : 'PlayerStreamItem';
    return say(validatorOf(['components', 'schemas', name]), `stream item (${name})`);
  }
  if (seen.item === 'webhook') {
    const type = seen.json?.type;
    const operation = spec.webhooks?.[type]?.post;
    if (!operation) return `webhook ${type}: no such entry in openapi.yaml webhooks`;
    for (const [i, given] of (operation.parameters ?? []).entries()) {
      const parameter = resolve(given);
      const at = given.$ref ? given.$ref.slice(2).split('/') : ['webhooks', type, 'post', 'parameters', i];
      const value = seen.headers?.[parameter.name];
      if (value === undefined) {
        if (parameter.required) return `webhook ${type}: header ${parameter.name} missing`;
        continue;
      }
      const validate = validatorOf([...at, 'schema']);
      if (!validate(value)) return `webhook ${type}: header ${parameter.name} ${validate.errors[0].message}`;
    }
    return say(validatorOf(['webhooks', type, 'post', 'requestBody', 'content', 'application/json', 'schema']),
      `webhook ${type}`);
  }
  return `unknown item kind ${seen.item}`;
}

const problems = new Map();
let checked = 0;
const items = { stream: 0, webhook: 0 };
for (const line of readFileSync(recordPath, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const answer = JSON.parse(line);
  if (answer.item !== undefined) {
    const problem = itemProblem(answer);
    if (problem) problems.set(problem, (problems.get(problem) ?? 0) + 1);
    else items[answer.item]++;
    continue;
  }
  const path = answer.path.split('?')[0];
  const method = answer.method.toLowerCase();
  const match = templates.find((t) => t.regex.test(path) && spec.paths[t.template][method]);
  const say = (what) => problems.set(what, (problems.get(what) ?? 0) + 1);
  if (!match) {
    // A path the API does not have: the answer must still be the one error shape.
    if (![404, 405].includes(answer.status)) { say(`${answer.method} ${path}: no such operation in openapi.yaml`); continue; }
    const validateError = validatorFor404();
    if (!validateError(answer.json)) { say(`${answer.method} ${path} ${answer.status}: not the error shape`); continue; }
    checked++;
    continue;
  }
  const validate = validatorFor(match.template, method, String(answer.status));
  if (!validate) { say(`${answer.method} ${match.template}: status ${answer.status} is not declared`); continue; }
  if (answer.json === undefined && answer.status !== 200 && answer.status !== 204) { say(`${answer.method} ${match.template} ${answer.status}: body is not JSON`); continue; }
  if (answer.json !== undefined && !validate(answer.json)) {
    const e = validate.errors[0];
    say(`${answer.method} ${match.template} ${answer.status}: ${e.instancePath || '/'} ${e.message}`);
    continue;
  }
  checked++;
}
for (const [what, count] of problems) console.log(`MISMATCH (${count}x) ${what}`);
console.log(`${checked} responses, ${items.stream} stream items and ${items.webhook} webhook bodies match openapi.yaml, ${[...problems.values()].reduce((a, b) => a + b, 0)} do not`);
process.exit(problems.size === 0 && checked > 0 ? 0 : 1);
