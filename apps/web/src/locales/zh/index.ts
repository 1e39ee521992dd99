import common from './common.ts';
import menu from './menu.ts';
import shell from './shell.ts';
import request from './request.ts';
import auth from './auth.ts';
import home from './home.ts';
import system from './system.ts';
import notice from './notice.ts';
import download from './download.ts';
import operator from './operator.ts';
import commserv from './commserv.ts';
import plan from './plan.ts';
import opconfig from './opconfig.ts';
import netconfig from './netconfig.ts';
import retail from './retail.ts';
import carddata from './carddata.ts';

export default { common, menu, shell, request, auth, home, system, notice, download, operator, commserv, plan, opconfig, netconfig, retail, carddata };
