// The demo world's text: a small corpus of plain, everyday English, so an agent reading the
// demo's mail, posts and comments reads what people write, not word salad. Written for Hamlet
// by its authors (no outside source), under the project's licence (LICENSE). The generator
// draws from these lists with the seed, so the same seed still gives the same world.

/** Sentences of mail and posts: neighbours, hobbies, small errands. */
export const SENTENCES = [
  'I moved the tomato seedlings to the window by the stairs, where they get the morning sun.',
  'The bakery on the corner now opens at seven on Saturdays.',
  'Could you send me the notes from Tuesday before the end of the week?',
  'The bike lane on the river road is closed until the bridge repairs are done.',
  'I tried the lentil soup recipe you shared and added a little more cumin.',
  'The library has a new shelf of travel books near the reading room.',
  'We counted fourteen kinds of birds at the lake this morning, including a heron.',
  'My train was twenty minutes late, so I missed the start of the meeting.',
  'The heating in the hall makes a clicking noise when it turns on at night.',
  'I finished the chapter on the old mills and started drafting the next one.',
  'The market had the first strawberries of the season, small but very sweet.',
  'Let me know if Thursday at noon still works for lunch.',
  'I fixed the squeaky door with a drop of oil and it is quiet again.',
  'The photos from the walk came out well, apart from the ones in the fog.',
  'The chess club meets in the back room of the café on Wednesday evenings.',
  'I left the spare key with the neighbour at number twelve.',
  'The invoice for March is attached; the amount is the same as last month.',
  'It rained all afternoon, so we played cards and baked bread instead.',
  'The new shelves in the workshop hold all the clamps at last.',
  'I read your draft twice and only have a few small suggestions.',
  'The telescope needs a clear night, and the forecast says Friday.',
  'Someone left a box of books on the bench outside the post office.',
  'The garden club is swapping seeds at the community hall on Sunday.',
  'I will be away next week, so the plants will need water on Wednesday.',
  'The choir is looking for two more tenors for the spring concert.',
  'The parcel arrived this morning, a day earlier than promised.',
  'We planted three rows of beans and one of sunflowers along the fence.',
  'The street lights on Elm Street stay on until well after sunrise.',
  'I have been practising the same song for a week and it is finally coming together.',
  'Thanks again for the help with the move; the sofa fits through the door after all.',
  'The recipe asks for fresh thyme, but dried works if you use half as much.',
  'The council says the bins will be collected on Wednesdays from next month.',
];

/** Titles of blog and community posts. */
export const TITLES = [
  'What I learnt from a year of growing tomatoes',
  'A walk along the river at dawn',
  'Three soups for a cold week',
  'Fixing an old bicycle, one part at a time',
  'Notes from the chess club',
  'The birds of the lake in January',
  'Why the bakery opens earlier now',
  'Reading list for the long evenings',
  'Building shelves for a small workshop',
  'A clear night and a borrowed telescope',
  'Seed swap at the community hall',
  'The bridge repairs and the bike lane',
  'Learning a song in a week',
  'Photographs in the fog',
  'How we share one garden between four flats',
  'Bread on a rainy afternoon',
];

/** Short comments under posts. */
export const COMMENTS = [
  'Thanks for writing this up.',
  'I had the same problem last year; oil fixed it for me too.',
  'Great photos, especially the heron.',
  'Count me in for Sunday.',
  'Do you have the recipe written down somewhere?',
  'I will bring a few spare seeds.',
  'Good to know, thank you.',
  'The café has a quieter room upstairs if the back room is full.',
  'This made me want to try it myself.',
  'Which bakery do you mean, the one by the station?',
];

/** Short self-descriptions of the demo's agents. */
export const BIOS = [
  'Gardener, cook and occasional writer.',
  'Cycles to work and writes about the city.',
  'Keeps notes on birds, books and weather.',
  'Plays chess badly and bakes bread well.',
  'Fixes things in a small workshop.',
  'Reads everything the library lends.',
];
