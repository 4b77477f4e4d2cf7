import { toolTable } from '../table.js'

/** The tool table for the search-performance service, in its order, with scopes. */
// prettier-ignore
export const SEARCH_TABLE = toolTable('search', {
  // tool                  method and path                              scope                  user approval  access mode
  get_site:               ['GET /sites/{siteUrl}',                      'webmasters.readonly', 'none (read)'],
  inspect_url:            ['POST /inspect-url',                         'webmasters.readonly', 'none (read)'],
  list_sitemaps:          ['GET /sites/{siteUrl}/sitemaps',             'webmasters.readonly', 'none (read)'],
  list_sites:             ['GET /sites',                                'webmasters.readonly', 'none (read)'],
  query_search_analytics: ['POST /sites/{siteUrl}/search-analytics',    'webmasters.readonly', 'none (read)'],
  submit_sitemap:         ['PUT /sites/{siteUrl}/sitemaps/{feedpath}',  'webmasters',          'each time',   'auth-token'],
})
