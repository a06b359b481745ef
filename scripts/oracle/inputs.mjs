// The input families every node case runs with: ordinary, empty, missing fields, unicode,
// numbers as strings, mixed types and nulls. Hand-written for this project.
export const INPUTS = {
  ordinary: [
    {
      name: 'Ann',
      age: 31,
      city: 'Paris',
      tags: ['a', 'b'],
      score: 7.5,
      active: true,
      when: '2024-03-10T12:30:00.000Z',
      html: '<p>Hello <b>Ann</b></p>',
    },
    {
      name: 'Bob',
      age: 25,
      city: 'Berlin',
      tags: ['c'],
      score: 3,
      active: false,
      when: '2023-12-31',
      html: '<h1>Title</h1><ul><li>x</li></ul>',
    },
    {
      name: 'Cy',
      age: 40,
      city: 'Paris',
      tags: [],
      score: 9,
      active: true,
      when: '2024-02-29T23:59:59+02:00',
      html: '<a href="https://example.com">link</a>',
    },
  ],
  empty: [{}],
  missing: [{ name: 'Ann' }, { age: 3 }, { city: 'Rome', name: null }],
  unicode: [
    {
      name: 'Zoë 🚀',
      age: 22,
      city: 'Zürich',
      tags: ['ü', 'é'],
      score: 1,
      active: true,
      when: '2024-01-01T00:00:00Z',
      html: '<p>Ça va? ✓</p>',
    },
    {
      name: '李雷',
      age: 30,
      city: '北京',
      tags: ['中'],
      score: 2.25,
      active: false,
      when: '2022-06-15',
      html: '<em>日本</em>',
    },
  ],
  numStrings: [
    { name: 'Ann', age: '31', city: 'Paris', tags: ['1', '2'], score: '7.5', active: 'true', when: '1710073800000' },
    { name: 'Bob', age: 'x', city: '', tags: [], score: '', active: 'false', when: 'not a date' },
  ],
  mixed: [
    { name: 5, age: '25', city: ['Paris'], tags: 'a,b', score: null, active: 1, when: 1710073800000 },
    { name: true, age: [1], city: { x: 1 }, tags: { x: 1 }, score: '3', active: 'yes', when: true },
  ],
  nulls: [{ name: null, age: null, city: null, tags: null, score: null, active: null, when: null, html: null }],
  none: [],
};

export const ALL_INPUTS = ['ordinary', 'empty', 'missing', 'unicode', 'numStrings', 'mixed', 'nulls'];
