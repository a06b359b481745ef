// Templates: HA's template language over POST /api/template (text answers, HA's 400 texts), every
// function and filter of issue 14, the bounds on a runaway template, the sandbox, and the
// WebSocket render_template subscription through the official home-assistant-js-websocket client.
import WebSocket from 'ws';
(globalThis as unknown as { WebSocket: unknown }).WebSocket = WebSocket;

import { createConnection, createLongLivedTokenAuth, type Connection } from 'home-assistant-js-websocket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { waitFor } from '../helpers/wait.js';
import { startHome, type HomeTest } from './helpers.js';

let h: HomeTest;
let conn: Connection;
// 2026-01-05 10:00:00 UTC, a Monday; the demo house is in Europe/Amsterdam (UTC+1 in January).
const clock = new ManualClock('2026-01-05T10:00:00.000Z');

beforeAll(async () => {
  h = await startHome({ clock });
  await h.api('POST', '/api/states/sensor.kitchen_temp', {
    state: '21.5',
    attributes: { unit_of_measurement: '°C', area: 'Kitchen', friendly_name: 'Kitchen temp' },
  });
  await h.api('POST', '/api/states/sensor.humidity', { state: 'unavailable', attributes: { area: 'Kitchen' } });
  await h.api('POST', '/api/states/group.downstairs', {
    state: 'on',
    attributes: { entity_id: ['light.kitchen', 'light.hall'] },
  });
  await h.api('POST', '/api/services/light/turn_on', { entity_id: 'light.kitchen', brightness: 180 });
  conn = await createConnection({ auth: createLongLivedTokenAuth(h.url, h.token) });
});
afterAll(async () => {
  conn?.close();
  await h?.t.destroy();
});

async function render(template: string, variables?: Record<string, unknown>): Promise<string> {
  const r = await h.api('POST', '/api/template', variables ? { template, variables } : { template });
  if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
  expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
  return r.text;
}

async function renderError(template: string): Promise<string> {
  const r = await h.api('POST', '/api/template', { template });
  expect(r.status).toBe(400);
  return r.body.message as string;
}

describe('states', () => {
  it('states(), states.<domain>.<object> and its fields', async () => {
    expect(await render("{{ states('light.kitchen') }}")).toBe('on');
    expect(await render("{{ states('light.nope') }}")).toBe('unknown');
    expect(
      await render(
        '{{ states.light.kitchen.state }}|{{ states.light.kitchen.attributes.brightness }}|{{ states.light.kitchen.entity_id }}|{{ states.light.kitchen.name }}',
      ),
    ).toBe('on|180|light.kitchen|Kitchen');
    expect(
      await render('{{ states.light.kitchen.last_changed.year }} {{ states.light.kitchen.last_changed.isoformat() }}'),
    ).toMatch(/^2026 2026-01-05T10:00:00(\.\d{6})?\+00:00$/);
    expect(await render('{{ states.light | map(attribute="entity_id") | list }}')).toBe(
      "['light.hall', 'light.kitchen', 'light.living_room', 'light.porch']",
    );
    expect(await render('{% for s in states.light if s.state == "on" %}{{ s.name }}{% endfor %}')).toBe('Kitchen');
    expect(Number(await render('{{ states | count }}'))).toBeGreaterThan(15);
  });

  it('is_state, state_attr, is_state_attr, has_value', async () => {
    expect(
      await render(
        "{{ is_state('light.kitchen', 'on') }} {{ is_state('light.kitchen', ['off', 'on']) }} {{ is_state('light.hall', 'on') }}",
      ),
    ).toBe('True True False');
    expect(
      await render("{{ state_attr('light.kitchen', 'brightness') }} {{ state_attr('light.kitchen', 'nope') }}"),
    ).toBe('180 None');
    expect(
      await render(
        "{{ is_state_attr('light.kitchen', 'brightness', 180) }} {{ is_state_attr('light.kitchen', 'brightness', 1) }}",
      ),
    ).toBe('True False');
    expect(
      await render(
        "{{ has_value('sensor.kitchen_temp') }} {{ has_value('sensor.humidity') }} {{ has_value('sensor.nope') }}",
      ),
    ).toBe('True False False');
    expect(
      await render("{{ 'light.kitchen' | is_state('on') }} {{ 'light.kitchen' | state_attr('brightness') }}"),
    ).toBe('True 180');
  });

  it('expand (groups too), area_entities, area_name, device_attr', async () => {
    expect(await render("{{ expand('group.downstairs') | map(attribute='entity_id') | list }}")).toBe(
      "['light.hall', 'light.kitchen']",
    );
    expect(
      await render("{{ expand(states.light.kitchen, 'sensor.kitchen_temp') | map(attribute='state') | join(',') }}"),
    ).toBe('on,21.5');
    // Areas and devices come from the house file's registries (the demo house's kitchen).
    expect(await render("{{ area_entities('Kitchen') }}")).toBe("['light.kitchen', 'switch.coffee_maker']");
    expect(
      await render(
        "{{ area_entities('kitchen') | count }} {{ area_name('light.kitchen') }} {{ area_name('light.hall') }} {{ area_name('sensor.kitchen_temp') }}",
      ),
    ).toBe('2 Kitchen Hall None');
    expect(await render("{{ area_entities('lounge') | select('match', 'climate') | list }}")).toBe("['climate.hvac']");
    expect(
      await render(
        "{{ device_attr('climate.hvac', 'manufacturer') }} {{ device_attr('climate.hvac', 'model') }} {{ device_attr('light.nope', 'model') }}",
      ),
    ).toBe('Hamlet Demo Thermostat None');
  });
});

describe('time', () => {
  it('now, utcnow, as_timestamp, as_datetime, relative_time, timedelta', async () => {
    expect(await render('{{ now() }}')).toMatch(/^2026-01-05 11:00:00(\.\d{6})?\+01:00$/);
    expect(await render('{{ utcnow().hour }} {{ now().hour }} {{ now().strftime("%A %H:%M") }}')).toBe(
      '10 11 Monday 11:00',
    );
    expect(await render("{{ as_timestamp('2026-01-05T10:00:00+00:00') }} {{ as_timestamp('nope', 0) }}")).toBe(
      '1767607200.0 0',
    );
    expect(
      await render("{{ as_datetime('2026-01-05T09:00:00Z') < now() }} {{ as_datetime('2026-01-05T09:00:00Z').hour }}"),
    ).toBe('True 9');
    expect(
      await render(
        "{{ relative_time(as_datetime('2026-01-05T08:00:00Z')) }} {{ relative_time(as_datetime('2026-01-05T09:59:00Z')) }}",
      ),
    ).toBe('2 hours 1 minute');
    expect(
      await render(
        '{{ timedelta(minutes=90) }} {{ timedelta(days=1, hours=2) }} {{ timedelta(hours=2).total_seconds() }}',
      ),
    ).toBe('1:30:00 1 day, 2:00:00 7200.0');
    expect(
      await render(
        "{{ (now() - timedelta(hours=1)).hour }} {{ (now() - as_datetime('2026-01-05T09:00:00Z')).seconds }}",
      ),
    ).toBe('10 3600');
  });
});

describe('numbers and logic', () => {
  it('float, int, round, default as filters and functions', async () => {
    expect(
      await render(
        "{{ states('sensor.kitchen_temp') | float + 1 }} {{ float('2.5') * 2 }} {{ 'x' | float(0) }} {{ float('x', 1.5) }}",
      ),
    ).toBe('22.5 5.0 0 1.5');
    expect(await render("{{ '42' | int + 1 }} {{ '3.7' | int }} {{ int('x', -1) }} {{ '0x1F' | int(base=16) }}")).toBe(
      '43 3 -1 31',
    );
    expect(
      await render(
        '{{ 2.5 | round }} {{ 3.5 | round }} {{ 3.14159 | round(2) }} {{ 2.1 | round(0, "ceil") }} {{ 2.9 | round(1, "floor") }} {{ "x" | round(1, default=0) }}',
      ),
    ).toBe('2 4 3.14 3 2.9 0');
    expect(
      await render(
        "{{ undefined_thing | default('fallback') }} {{ '' | default('empty', true) }} {{ 5 | default(1) }}",
      ),
    ).toBe('fallback empty 5');
  });

  it('iif, min, max', async () => {
    expect(
      await render(
        "{{ iif(is_state('light.kitchen', 'on'), 'lit', 'dark') }} {{ (1 > 2) | iif('y', 'n') }} {{ iif(none, 'y', 'n', 'none') }}",
      ),
    ).toBe('lit n none');
    expect(await render('{{ min([3, 1, 2]) }} {{ max(3, 9, 2) }} {{ [4, 8] | max }} {{ ["b", "a"] | min }}')).toBe(
      '1 9 8 a',
    );
  });

  it('selectattr, rejectattr, map, select', async () => {
    expect(
      await render("{{ states.light | selectattr('state', 'eq', 'on') | map(attribute='entity_id') | list }}"),
    ).toBe("['light.kitchen']");
    expect(await render("{{ states.light | rejectattr('state', 'eq', 'on') | list | count }}")).toBe('3');
    expect(
      await render(
        "{{ states.light | selectattr('attributes.brightness', 'number') | map(attribute='attributes.brightness') | list }}",
      ),
    ).toBe('[180]');
    expect(
      await render(
        "{{ ['1', '2.5'] | map('float') | sum }} {{ [1, 0, 3] | select | list }} {{ [1, 2, 3, 4] | select('odd') | list }}",
      ),
    ).toBe('3.5 [1, 3] [1, 3]');
  });

  it('regex_match, regex_search, regex_replace, regex_findall', async () => {
    expect(
      await render(
        "{{ 'Kitchen Light' | regex_match('kitchen', ignorecase=True) }} {{ 'the kitchen' | regex_match('kitchen') }} {{ 'the kitchen' | regex_search('kit') }}",
      ),
    ).toBe('True False True');
    expect(
      await render(
        "{{ 'a1b22c333' | regex_findall('\\\\d+') }} {{ 'key=val' | regex_findall('(\\\\w+)=(\\\\w+)') }} {{ 'a1b22' | regex_findall_index('\\\\d+', 1) }}",
      ),
    ).toBe("['1', '22', '333'] [['key', 'val']] 22");
    expect(await render("{{ 'hello world' | regex_replace('(\\\\w+) (\\\\w+)', '\\\\2 \\\\1') }}")).toBe('world hello');
  });

  it('to_json and from_json', async () => {
    expect(await render("{{ {'a': 1, 'b': [True, none], 'c': 'ü'} | to_json }}")).toBe(
      '{"a":1,"b":[true,null],"c":"ü"}',
    );
    expect(
      await render(
        "{{ {'b': 1, 'a': 2} | to_json(sort_keys=True) }} {{ ('{\"x\": {\"y\": [1, 2]}}' | from_json).x.y[1] }}",
      ),
    ).toBe('{"a":2,"b":1} 2');
  });

  it('variables, Jinja statements and Python-shaped output', async () => {
    expect(
      await render('{{ who }} has {{ items | length }} items: {{ items }}', { who: 'Ada', items: ['a', 'b'] }),
    ).toBe("Ada has 2 items: ['a', 'b']");
    expect(
      await render(
        '{% set n = namespace(total=0) %}{% for x in [1, 2, 3] %}{% set n.total = n.total + x %}{% endfor %}{{ n.total }}',
      ),
    ).toBe('6');
    expect(await render('{{ true }} {{ none }} {{ 1.0 }} {{ 7 / 2 }} {{ 7 // 2 }} {{ {"k": "v"} }}')).toBe(
      "True None 1.0 3.5 3 {'k': 'v'}",
    );
    expect(await render('{% if is_state("light.kitchen", "on") %}on{% else %}off{% endif %}')).toBe('on');
  });
});

describe("errors, answered as HA's", () => {
  it('syntax errors, undefined attributes, invalid input without a default', async () => {
    expect(await renderError('{{ states(')).toMatch(/^Error rendering template: TemplateSyntaxError: /);
    expect(await renderError('{{ nothing.here }}')).toBe(
      "Error rendering template: UndefinedError: 'nothing' is undefined",
    );
    expect(await renderError("{{ 'abc' | float }}")).toBe(
      "Error rendering template: ValueError: Template error: float got invalid input 'abc' when rendering template '{{ 'abc' | float }}' but no default was specified",
    );
    expect(await renderError("{{ 'x' | as_timestamp }}")).toMatch(
      /ValueError: Template error: as_timestamp got invalid input 'x'/,
    );
    expect(await renderError('{{ 1 | no_such_filter }}')).toBe(
      "Error rendering template: TemplateAssertionError: No filter named 'no_such_filter'.",
    );
  });

  it('bad requests: no JSON, no template, wrong types', async () => {
    expect(await h.api('POST', '/api/template', 'not json')).toMatchObject({
      status: 400,
      body: { message: 'Error rendering template: Expecting value: line 1 column 1 (char 0)' },
    });
    expect(await h.api('POST', '/api/template', {})).toMatchObject({
      status: 400,
      body: { message: "Error rendering template: required key not provided @ data['template']" },
    });
    expect(await h.api('POST', '/api/template', { template: 5 })).toMatchObject({ status: 400 });
    expect(await h.api('POST', '/api/template', { template: '{{ x }}', variables: [1] })).toMatchObject({
      status: 400,
    });
  });
});

describe('bounds and sandbox', () => {
  it('a runaway template is stopped, and the server goes on answering', async () => {
    expect(await renderError('{% for i in range(100000000) %}{% endfor %}')).toMatch(
      /TemplateLimitError: range\(\) of 100000000 items/,
    );
    expect(
      await renderError('{% for i in range(10000) %}{% for j in range(10000) %}{{ j }}{% endfor %}{% endfor %}'),
    ).toMatch(/TemplateLimitError: template stopped: /);
    expect(
      await renderError(
        "{% set s = namespace(t='ab') %}{% for i in range(64) %}{% set s.t = s.t ~ s.t %}{% endfor %}{{ s.t }}",
      ),
    ).toMatch(/TemplateLimitError: template stopped: a text longer than/);
    expect(await renderError("{{ 'x' * 100000000 }}")).toMatch(/TemplateLimitError/);
    expect(await renderError("{{ 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' | regex_match('(a+)+$') }}")).toMatch(
      /ValueError: regular expression .* nests quantifiers/,
    );
    // Values that share items, and replacements, cannot write out an unbounded text.
    const shared =
      '{% set a = range(5000) | list %}{% set n = namespace(l=[]) %}{% for i in range(5000) %}{% set n.l = n.l + [a] %}{% endfor %}';
    expect(await renderError(`${shared}{{ n.l | to_json }}`)).toMatch(/TemplateLimitError: template stopped: /);
    expect(await renderError(`${shared}{{ n.l }}`)).toMatch(/TemplateLimitError: template stopped: /);
    expect(await renderError("{{ ('x' * 100000) | replace('x', 'yyyyyyyyyy') }}")).toMatch(
      /TemplateLimitError: template stopped: replace would make a text longer/,
    );
    expect(await renderError("{{ ('x' * 100000).replace('x', 'yyyyyyyyyy') }}")).toMatch(/TemplateLimitError/);
    expect(
      await render(
        "{{ 'a-b-c'.replace('-', '+') }} {{ 'a-b-c' | replace('-', '+', 1) }} {{ ['x'] * 0 if false else ['a', 'b'] | join('/') }}",
      ),
    ).toBe('a+b+c a+b-c a/b');
    expect(await render("{{ states('light.kitchen') }}")).toBe('on');
  });

  it("user code cannot reach JavaScript's constructors or Node's globals", async () => {
    const escapes = [
      "{{ range.constructor('return process')() }}",
      "{{ ''.constructor.constructor('return process')() }}",
      '{{ states.constructor }}',
      '{{ cycler.__init__.__globals__ }}',
      "{{ now.constructor('return globalThis')().process.exit() }}",
      '{{ ({}).__proto__ }}',
      "{{ states['__proto__'] }}",
      "{{ lipsum.__globals__['os'] }}",
      '{{ process }}{{ require }}{{ globalThis }}',
    ];
    for (const t of escapes) {
      const r = await h.api('POST', '/api/template', { template: t });
      // Either an error or a template value (`states.constructor` is just a domain named so):
      // never a function, an object of the host, or a side effect.
      expect([200, 400]).toContain(r.status);
      expect(r.text).not.toMatch(/function|native code|\[object|process|global|env/i);
    }
    expect(await render("{{ states('light.kitchen') }}")).toBe('on');
  });
});

describe('WebSocket render_template (home-assistant-js-websocket)', () => {
  it('answers {result, listeners} and re-renders when a referenced entity changes', async () => {
    const events: any[] = [];
    const unsub = await conn.subscribeMessage((e) => void events.push(e), {
      type: 'render_template',
      template: "{{ states('sensor.kitchen_temp') | float + 1 }} {{ is_state('light.hall', 'on') }}",
    });
    await waitFor(() => events.length >= 1);
    expect(events[0]).toEqual({
      result: '22.5 False',
      listeners: { all: false, domains: [], entities: ['light.hall', 'sensor.kitchen_temp'], time: false },
    });

    await h.api('POST', '/api/states/sensor.kitchen_temp', {
      state: '23',
      attributes: { unit_of_measurement: '°C', area: 'Kitchen', friendly_name: 'Kitchen temp' },
    });
    await waitFor(() => events.length >= 2);
    expect(events[1].result).toBe('24.0 False');
    await h.api('POST', '/api/services/light/turn_on', { entity_id: 'light.hall' });
    await waitFor(() => events.length >= 3);
    expect(events[2].result).toBe('24.0 True');

    // A change to an entity it did not read causes no render.
    await h.api('POST', '/api/states/sensor.unrelated', { state: '1' });
    await h.api('POST', '/api/services/light/turn_off', { entity_id: 'light.hall' });
    await waitFor(() => events.length >= 4);
    expect(events.map((e) => e.result)).toEqual(['22.5 False', '24.0 False', '24.0 True', '24.0 False']);
    await unsub();
    await h.api('POST', '/api/services/light/turn_on', { entity_id: 'light.hall' });
    await h.api('GET', '/api/');
    expect(events).toHaveLength(4);
  });

  it('results are native values as HA parses them; domain and all listeners; variables', async () => {
    const seen: any[] = [];
    const unsub = await conn.subscribeMessage((e) => void seen.push(e), {
      type: 'render_template',
      template: '{{ states.light | selectattr("state", "eq", "on") | list | count + n }}',
      variables: { n: 10 },
    });
    await waitFor(() => seen.length >= 1);
    expect(seen[0].listeners).toEqual({ all: false, domains: ['light'], entities: [], time: false });
    const before = seen[0].result;
    expect(typeof before).toBe('number');
    await h.api('POST', '/api/services/light/turn_on', { entity_id: 'light.porch' });
    await waitFor(() => seen.length >= 2);
    expect(seen[1].result).toBe(before + 1);
    await unsub();

    // A template that used now() renders again at the start of each minute.
    const timed: any[] = [];
    const unsubTimed = await conn.subscribeMessage((e) => void timed.push(e), {
      type: 'render_template',
      template: '{{ now().strftime("%H:%M") }}',
    });
    await waitFor(() => timed.length >= 1);
    expect(timed[0]).toEqual({ result: '11:00', listeners: { all: false, domains: [], entities: [], time: true } });
    clock.advance(60_000);
    await waitFor(() => timed.length >= 2);
    expect(timed[1].result).toBe('11:01');
    await unsubTimed();

    const all: any[] = [];
    const unsubAll = await conn.subscribeMessage((e) => void all.push(e), {
      type: 'render_template',
      template: '{{ states | count }} {{ now().year }}',
    });
    await waitFor(() => all.length >= 1);
    expect(all[0].listeners).toMatchObject({ all: true, time: true });
    await unsubAll();
  });

  it('errors: template_error at subscribe for bad syntax or strict; report_errors sends {error, level}', async () => {
    await expect(
      conn.subscribeMessage(() => {}, { type: 'render_template', template: '{{ states(' }),
    ).rejects.toMatchObject({ code: 'template_error' });
    await expect(
      conn.subscribeMessage(() => {}, { type: 'render_template', template: '{{ x.y }}', strict: true }),
    ).rejects.toMatchObject({
      code: 'template_error',
      message: "UndefinedError: 'x' is undefined",
    });
    const got: any[] = [];
    const unsub = await conn.subscribeMessage((e) => void got.push(e), {
      type: 'render_template',
      template: "{{ states('sensor.kitchen_temp') | float / 0 if false else ('x' | float) }}",
      report_errors: true,
    });
    await waitFor(() => got.length >= 1);
    expect(got[0]).toMatchObject({ level: 'ERROR' });
    expect(got[0].error).toMatch(/^ValueError: Template error: float got invalid input 'x'/);
    await unsub();
    await expect(conn.subscribeMessage(() => {}, { type: 'render_template' })).rejects.toMatchObject({
      code: 'invalid_format',
    });

    // A render that failed still listens to what it read, and recovers.
    await h.api('POST', '/api/states/sensor.flaky', { state: 'unavailable' });
    const flaky: any[] = [];
    const unsubFlaky = await conn.subscribeMessage((e) => void flaky.push(e), {
      type: 'render_template',
      template: "{{ states('sensor.flaky') | float * 2 }}",
      report_errors: true,
    });
    await waitFor(() => flaky.length >= 1);
    expect(flaky[0].error).toMatch(/float got invalid input 'unavailable'/);
    await h.api('POST', '/api/states/sensor.flaky', { state: '4' });
    await waitFor(() => flaky.length >= 2);
    expect(flaky[1]).toEqual({
      result: 8.0,
      listeners: { all: false, domains: [], entities: ['sensor.flaky'], time: false },
    });
    await unsubFlaky();
  });
});
