/** What each scope lets an app do, in the words the consent and connections pages use. */
const WORDS: Record<string, string> = {
  openid: 'Know who you are on this provider',
  'tasks.readonly': 'See your task lists and tasks',
  tasks: 'See, create, change and delete your task lists and tasks',
  'webmasters.readonly': "See your sites' search performance, sitemaps and index status",
  webmasters: "See your sites' search performance and index status, and submit sitemaps",
  'analytics.readonly': 'See reports on your analytics properties',
}

export const scopeInWords = (short: string) => WORDS[short] ?? short
