// The settings of every port Hamlet listens on, all set to 0 (any free port): a test server
// started in-process or as a child never collides with another test file running beside it.
const PORT_SETTINGS = [
  'HAMLET_CONSOLE_PORT',
  'BLOG_PORT',
  'MAIL_PORT',
  'SMTP_PORT',
  'MAIL_SUBMISSION_PORT',
  'COMMUNITY_PORT',
  'HOME_PORT',
  'WORKFLOW_PORT',
];

export const ANY_FREE_PORT: Record<string, string> = Object.fromEntries(PORT_SETTINGS.map((setting) => [setting, '0']));
