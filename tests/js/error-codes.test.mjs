// The JS skin raises only codes of the core's vocabulary (pkg/lib/error_codes.js, generated from
// src/error/codes.rs by tests/error_codes.rs). The package's and the viewer's sources are parsed (TypeScript's
// parser, from .tools/) and every code literal found where a code is given is checked: the
// first argument of `new EvalError`, the code argument of the servers' error classes, a `code:`
// property and a `code` binding's default. A code given as a variable forwards one already
// raised (the core's, a remote's), so it is not a literal here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORE_ERROR_CODES, ERROR_CODES, HTTP_STATUS_PREFIX, NOT_EVALUATED_REASONS, isErrorCode } from '../../pkg/lib/error_codes.js';
import { fromWire } from '../../pkg/lib/errors.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TS = join(ROOT, '.tools', 'node_modules', 'typescript');

/** Where each call or construction takes its code: the argument index (and the arity, if it must match). */
const CODE_ARGUMENT = {
  EvalError: { at: 0 },
  HttpError: { at: 1 },
  Refusal: { at: 1 },
  PermanentError: { at: 0 },
  requestLine: { at: 2 },
  failure: { at: 1, arity: 4 }, // the dev UI's failure(status, code, path, message)
};

function sources() {
  const walk = (dir) => readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : /\.m?js$/.test(n) ? [p] : [];
  });
  const pkg = ['bin/evalcore.js', 'index.js', 'web.js'].map((f) => join(ROOT, 'pkg', f));
  return [...walk(join(ROOT, 'pkg', 'lib')), ...pkg, ...walk(join(ROOT, 'www'))];
}

/**
 * Every code literal given as a code in the package's JS: `[{code, at, form}]`; and `read`, the
 * literals it compares codes (`x.code === '...'`) and NOT_EVALUATED reasons (`switch (x.reason)`)
 * against.
 */
function scan() {
  assert.ok(existsSync(TS), `TypeScript is not in .tools/: run scripts/setup.sh`);
  const ts = createRequire(join(ROOT, 'package.json'))(TS);
  const found = [];
  const read = { codes: [], reasons: [] };
  for (const file of sources()) {
    const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const add = (expr, form) => {
      const literals = (e) => {
        if (!e) return [];
        if (ts.isParenthesizedExpression(e)) return literals(e.expression);
        if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [e.text];
        // A template: its fixed head, then a placeholder (`http_${status}` is `http_*`).
        if (ts.isTemplateExpression(e)) return [`${e.head.text}*`];
        if (ts.isConditionalExpression(e)) return [...literals(e.whenTrue), ...literals(e.whenFalse)];
        const op = ts.isBinaryExpression(e) ? e.operatorToken.kind : null;
        if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) return [...literals(e.left), ...literals(e.right)];
        return [];
      };
      const line = src.getLineAndCharacterOfPosition(expr?.getStart() ?? 0).line + 1;
      for (const code of literals(expr)) found.push({ code, form, at: `${relative(ROOT, file)}:${line}` });
    };
    const visit = (n) => {
      if ((ts.isNewExpression(n) || ts.isCallExpression(n)) && ts.isIdentifier(n.expression)) {
        const spec = CODE_ARGUMENT[n.expression.text];
        if (spec && (spec.arity === undefined || n.arguments?.length === spec.arity)) add(n.arguments?.[spec.at], n.expression.text);
      }
      if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && n.name.text === 'code') add(n.initializer, 'code:');
      const binds = ts.isBindingElement(n) || ts.isParameter(n) || ts.isVariableDeclaration(n);
      if (binds && ts.isIdentifier(n.name) && n.name.text === 'code') add(n.initializer, 'code =');
      const named = (e, name) => ts.isPropertyAccessExpression(e) && e.name.text === name;
      const at = () => `${relative(ROOT, file)}:${src.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
      const eq = ts.isBinaryExpression(n) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(n.operatorToken.kind);
      if (eq && named(n.left, 'code') && ts.isStringLiteral(n.right)) read.codes.push({ code: n.right.text, at: at() });
      if (ts.isSwitchStatement(n) && named(n.expression, 'reason')) {
        for (const c of n.caseBlock.clauses) if (ts.isCaseClause(c) && ts.isStringLiteral(c.expression)) read.reasons.push({ code: c.expression.text, at: at() });
      }
      ts.forEachChild(n, visit);
    };
    visit(src);
  }
  return { found, read };
}

const { found, read } = scan();
/** Node's own error codes (`ENOENT`, `ERR_BUFFER_TOO_LARGE`), which a plain Error may imitate; never an EvalError's. */
const nodeCode = (code) => /^(E[A-Z]+|ERR_[A-Z_]+)$/.test(code);
const nodeErrno = (f) => nodeCode(f.code) && f.form === 'code:';

test('the scan sees codes in every form the package gives them', () => {
  const forms = new Set(found.map((f) => f.form));
  for (const form of ['EvalError', 'HttpError', 'Refusal', 'PermanentError', 'requestLine', 'failure', 'code:', 'code =']) {
    assert.ok(forms.has(form), `no code found given by ${form}`);
  }
  assert.ok(found.length > 300, `only ${found.length} code literals found`);
  assert.ok(found.some((f) => f.code === 'schema' && f.at.startsWith('pkg/lib/wasm/run.js')));
});

test('every code the JS raises is one of the vocabulary', () => {
  const outside = found.filter((f) => !nodeErrno(f) && !(f.code === `${HTTP_STATUS_PREFIX}*` || isErrorCode(f.code)));
  assert.deepEqual(outside.map((f) => `${f.code} (${f.form}) at ${f.at}`), []);
});

test('every code the JS tests an error for, and every NOT_EVALUATED reason it switches on, is of the vocabularies', () => {
  assert.ok(read.codes.length > 20 && read.reasons.length >= 3, `${read.codes.length} code comparisons, ${read.reasons.length} reason cases`);
  assert.deepEqual(read.codes.filter((r) => !nodeCode(r.code) && !isErrorCode(r.code)).map((r) => `${r.code} at ${r.at}`), []);
  assert.deepEqual(read.reasons.filter((r) => !NOT_EVALUATED_REASONS.includes(r.code)).map((r) => `${r.code} at ${r.at}`), []);
});

test('every code of the vocabulary is raised: by the core, or by the JS', () => {
  const raised = new Set(found.map((f) => f.code));
  const core = new Set(CORE_ERROR_CODES);
  assert.deepEqual(ERROR_CODES.filter((c) => !core.has(c) && !raised.has(c)), []);
  assert.ok(raised.has(`${HTTP_STATUS_PREFIX}*`), 'the http_ family is raised');
});

test('the generated list is frozen, each code once, the core\'s among them', () => {
  assert.ok(Object.isFrozen(ERROR_CODES) && Object.isFrozen(CORE_ERROR_CODES) && Object.isFrozen(NOT_EVALUATED_REASONS));
  assert.equal(new Set(NOT_EVALUATED_REASONS).size, NOT_EVALUATED_REASONS.length);
  assert.equal(new Set(ERROR_CODES).size, ERROR_CODES.length);
  for (const c of CORE_ERROR_CODES) assert.ok(ERROR_CODES.includes(c), c);
  assert.ok(isErrorCode('http_502') && !isErrorCode('http_') && !isErrorCode('http_9999') && !isErrorCode('bogus'));
});

test('an error of the core keeps its code, path and message; a missing code is internal', () => {
  const ok = fromWire({ code: 'schema', path: '$.a', message: 'm' });
  assert.deepEqual(ok.toJSON(), { code: 'schema', path: '$.a', message: 'm' });
  assert.equal(fromWire({ path: '', message: 'no code' }).code, 'internal');
  assert.equal(fromWire('not an object').code, 'internal');
});
