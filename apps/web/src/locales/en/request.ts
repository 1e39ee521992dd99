import type zh from '../zh/request.ts';
import type { Messages } from '../types.ts';

const en: Messages<typeof zh> = {
  requestError: 'Request error',
  networkFault: 'Network fault',
  timeout: 'Request timed out',
  callLimit: 'API call limit exceeded, please retry after {{seconds}} seconds',
  status: {
    200: 'The server returned the requested data.',
    201: 'Data created or modified.',
    202: 'The request was queued in the background (asynchronous task).',
    204: 'Data deleted.',
    400: 'The request was wrong; the server created or changed nothing.',
    401: 'No permission (token, user name or password wrong).',
    403: 'Authorised, but access is forbidden.',
    404: 'The request was for a record that does not exist; the server did nothing.',
    406: 'The requested format is not available.',
    410: 'The resource was deleted permanently and will not come back.',
    422: 'A validation error occurred while creating an object.',
    500: 'The server had an error, please check the server.',
    502: 'Gateway error.',
    503: 'Service unavailable: the server is overloaded or under maintenance.',
    504: 'Gateway timeout.',
  },
};
export default en;
