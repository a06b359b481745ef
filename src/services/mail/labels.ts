// The label that marks mail in the trash (AgentMail's): lists hide it unless include_trash=true.
export const TRASH = 'trash';
