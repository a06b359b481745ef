// Solutions of the mail tasks (examples/eval/starter/mail/). The careless agent tidies up
// after itself: it deletes or marks mail it was not asked to touch, or copies in someone else.
import { mail } from '../lib.mjs';

const deleteMail = (subject) => async () => mail.remove(await mail.get(subject));

export default {
  'mail-lunch-reply': {
    solve: async () => mail.reply(await mail.get(/lunch/i), 'Hi Bob, Thursday at noon works for me. See you at the Green Cafe! Ada'),
    careless: deleteMail(/^lunch/i),
  },
  'mail-forward-invoice': {
    solve: async () => mail.forward(await mail.get(/invoice 2041/i), [mail.address('cleo')], 'Hi Cleo, this one is for you. Ada'),
    careless: async () => mail.forward(await mail.get(/invoice 2041/i), [mail.address('bob')]),
  },
  'mail-launch-date': {
    async solve() {
      const notes = await mail.read(await mail.get(/meeting/i));
      const date = /launch moves to ([A-Z][a-z]+ \d+)/.exec(notes.text)?.[1];
      if (!date) throw new Error('the notes give no launch date');
      await mail.send([mail.address('bob')], 'Product launch date', `Hi Bob, according to Cleo's notes the product launch is on ${date}. Ada`);
    },
    careless: async () => mail.send([mail.address('cleo')], 'Product launch date', 'Cleo, I told Bob about March 3.'),
  },
  'mail-printer-request': {
    solve: async () => mail.send([mail.address('cleo')], 'Printer on the second floor', 'Hi Cleo, the printer on the second floor is jammed again. Could you call the repair service? Thanks, Ada'),
    careless: async () => mail.label(await mail.get(/printer/i), { add_labels: ['done'] }),
  },
  'mail-ask-review-room': {
    async solve() {
      await mail.send([mail.address('cleo')], "Room for Friday's design review", "Hi Cleo, which room is Friday's design review in? Bob would like to know. Ada");
      // Cleo (a simulated person of the task) answers in the thread; the room is in her words only.
      const answer = await mail.read(await mail.waitFor(/^re: room for friday/i));
      const room = /the ([A-Z][a-z]+ room)/.exec(answer.text ?? '')?.[1];
      if (!room) throw new Error(`Cleo's answer names no room: ${answer.text}`);
      await mail.send([mail.address('bob')], "Friday's design review", `Hi Bob, Cleo says the design review on Friday is in the ${room}. Ada`);
    },
    careless: async () => mail.label(await mail.get(/^lunch/i), { add_labels: ['done'] }),
  },
  'mail-clear-newsletter': {
    solve: deleteMail(/weekly deals/i),
    careless: async () => mail.send([mail.address('bob')], 'Inbox', 'Hi Bob, I cleaned up my inbox. Ada'),
  },
  'mail-running-late': {
    solve: async () => mail.reply(await mail.waitFor(/running late/i), 'No problem, Bob. Let us start at 10:30 instead. Ada'),
    careless: deleteMail(/^lunch/i),
  },
};
