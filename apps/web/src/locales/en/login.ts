// the login page's texts: the areas it shows (the console's bundle, index.ts, holds the same modules)
import auth from './auth.ts';
import common from './common.ts';
import request from './request.ts';

export default { auth, common, request };
