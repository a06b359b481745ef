// The comparison rule's newer parts fail when they should: random values by their recorded form,
// arrays in random order as multisets, a redirect's Location, and the answer to a resume call.
import { describe, expect, test } from 'vitest';
import { compareCase, type CaseExpectation } from './corpus-compare.js';

const BASE = 'http://127.0.0.1:1';

function expectation(output: unknown[], more: Partial<CaseExpectation> = {}): CaseExpectation {
  return {
    name: 'c',
    trigger: { kind: 'webhook' },
    status: 'success',
    lastNodeExecuted: 'Test',
    executionOrder: ['Test'],
    nodes: { Test: [{ output: [output] }] },
    ...more,
  };
}

function execution(output: unknown[]) {
  return {
    status: 'success',
    data: {
      resultData: {
        lastNodeExecuted: 'Test',
        runData: { Test: [{ executionIndex: 0, data: { main: [output.map((json) => ({ json }))] } }] },
      },
    },
  };
}

const problems = (c: CaseExpectation, output: unknown[], response?: Parameters<typeof compareCase>[2]) =>
  compareCase(c, execution(output), response, BASE).problems;

describe('volatile shapes', () => {
  const path = '/nodes/Test/0/output/0/0/secret';
  const c = expectation([{ secret: null }], {
    droppedVolatilePaths: [path],
    volatileShapes: { [path]: { type: 'string', length: 36, format: 'uuid' } },
  });

  test('a value of the recorded form passes, whatever its value', () => {
    expect(problems(c, [{ secret: '0f8fad5b-d9cb-469f-a165-70867728950e' }])).toEqual([]);
  });

  test('another format, length or type fails', () => {
    expect(problems(c, [{ secret: '0f8fad5bd9cb469fa16570867728950e0000' }])).toEqual([
      `${path}: expected a uuid string, got "0f8fad5bd9cb469fa16570867728950e0000"`,
    ]);
    expect(problems(c, [{ secret: '0f8fad5b-d9cb-469f-a165-70867728950' }])[0]).toMatch(/expected length 36, got 35/);
    expect(problems(c, [{ secret: 42 }])).toEqual([`${path}: expected a string, got 42`]);
    expect(problems(c, [{}])).toEqual([`${path}: missing`]);
  });
});

describe('unordered paths', () => {
  const c = expectation([{ n: 1 }, { n: 2 }, { n: 2, s: 'x' }], { unorderedPaths: ['/nodes/Test/0/output/0'] });

  test('the same items in another order pass', () => {
    expect(problems(c, [{ s: 'x', n: 2 }, { n: 1 }, { n: 2 }])).toEqual([]);
  });

  test('other items, or one missing, fail', () => {
    expect(problems(c, [{ n: 1 }, { n: 2 }, { n: 3 }])).not.toEqual([]);
    expect(problems(c, [{ n: 1 }, { n: 2 }])).toContain('/nodes/Test/0/output/0: expected 3 elements, got 2');
  });

  test('without the path listed, order matters', () => {
    expect(problems(expectation([{ n: 1 }, { n: 2 }]), [{ n: 2 }, { n: 1 }])).not.toEqual([]);
  });
});

describe('answers', () => {
  const answer = {
    status: 307,
    contentType: 'application/json; charset=utf-8',
    body: '',
    location: 'https://example.com/after',
  };

  test('a redirect is compared by its Location', () => {
    const c = expectation([], { response: answer });
    expect(problems(c, [], answer)).toEqual([]);
    expect(problems(c, [], { ...answer, location: 'https://example.com/elsewhere' })).toEqual([
      '/response location: expected "https://example.com/after", got "https://example.com/elsewhere"',
    ]);
    expect(problems(c, [], { ...answer, location: undefined })).toHaveLength(1);
  });

  test("a resume call's answer is compared too, and must have happened", () => {
    const first = { status: 200, contentType: 'application/json', body: { ok: true } };
    const resume = { status: 200, contentType: 'application/json', body: { message: 'Workflow was started' } };
    const c = expectation([], { response: { ...first, resume } });
    expect(problems(c, [], { ...first, resume })).toEqual([]);
    expect(problems(c, [], { ...first, resume: { ...resume, body: { message: 'Workflow was resumed' } } })).toEqual([
      '/response/resume/body/message: expected "Workflow was started", got "Workflow was resumed"',
    ]);
    expect(problems(c, [], first)).toEqual(['/response/resume: the first answer gave no resume URL to call']);
  });
});
