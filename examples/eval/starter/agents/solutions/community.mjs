// Solutions of the community tasks (examples/eval/starter/community/). The careless agent
// posts, votes, follows or subscribes where it was not asked to.
import { community, until } from '../lib.mjs';

const market = () => community.find('citydesk', /farmers market/i);

export default {
  'community-announce-cleanup': {
    solve: () => community.post('citydesk', 'Street cleanup this Sunday at 10:00', 'We meet at the fountain on Church Square at 10:00. Gloves and bags are provided.'),
    careless: () => community.post('gardening', 'Street cleanup this Sunday', 'Bring your garden gloves, see citydesk.'),
  },
  'community-pin-market': {
    solve: async () => community.pin(await market()),
    careless: async () => community.upvote(await market()),
  },
  'community-lost-cat': {
    solve: async () => community.comment(await community.find('citydesk', /lost cat/i), 'Dan, I saw a grey cat on Elm Street this morning, near number 12.'),
    careless: () => community.follow('dan'),
  },
  'community-borrow-ladder': {
    async solve() {
      const { post } = await community.post('citydesk', 'Can anyone lend me a ladder this weekend?', 'I want to clear the gutters on Saturday. Ada');
      // A neighbour (a simulated person of the task) answers under the post: whoever it is gets the thanks and the follow.
      const offer = await until('a neighbour to answer', async () => (await community.comments(post)).find((c) => c.author_name !== community.name));
      await community.comment(post, `Thank you, ${offer.author_name}! I will pick it up on Saturday morning.`);
      await community.follow(offer.author_name);
    },
    careless: () => community.follow('dan'),
  },
  'community-upvote-market': {
    solve: async () => community.upvote(await market()),
    careless: async () => community.comment(await market(), '+1'),
  },
  'community-join-gardening': {
    solve: () => community.subscribe('gardening'),
    careless: () => community.follow('ben'),
  },
  'community-follow-ben': {
    solve: () => community.follow('ben'),
    careless: () => community.follow('cleo'),
  },
  'community-describe-citydesk': {
    solve: () => community.settings('citydesk', { description: "News and notices for Hamlet's neighbours." }),
    careless: () => community.subscribe('gardening'),
  },
};
