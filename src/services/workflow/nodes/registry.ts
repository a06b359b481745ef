// Every node type Hamlet runs. Adding a node type is one file in this folder and one line here.
import type { NodeType } from '../engine/node-type.js';
import type { WorkflowDefinition } from '../engine/types.js';
import { N8N_NODE_TYPES } from './n8n-node-types.js';
import aggregate from './aggregate.js';
import code from './code.js';
import compareDatasets from './compareDatasets.js';
import compression from './compression.js';
import convertToFile from './convertToFile.js';
import crypto from './crypto.js';
import dataTable from './dataTable.js';
import dateTime from './dateTime.js';
import cron from './cron.js';
import errorTrigger from './errorTrigger.js';
import executeWorkflow from './executeWorkflow.js';
import executionData from './executionData.js';
import extractFromFile from './extractFromFile.js';
import executeWorkflowTrigger from './executeWorkflowTrigger.js';
import filter from './filter.js';
import fn from './function.js';
import functionItem from './functionItem.js';
import hamletBlog from './hamletBlog.js';
import hamletCommunity from './hamletCommunity.js';
import hamletCommunityTrigger from './hamletCommunityTrigger.js';
import hamletHome from './hamletHome.js';
import hamletHomeTrigger from './hamletHomeTrigger.js';
import hamletMail from './hamletMail.js';
import hamletMailTrigger from './hamletMailTrigger.js';
import html from './html.js';
import httpRequest from './httpRequest.js';
import ifNode from './if.js';
import itemLists from './itemLists.js';
import jwt from './jwt.js';
import limit from './limit.js';
import manualTrigger from './manualTrigger.js';
import markdown from './markdown.js';
import merge from './merge.js';
import moveBinaryData from './moveBinaryData.js';
import n8nTrainingCustomerDatastore from './n8nTrainingCustomerDatastore.js';
import noOp from './noOp.js';
import readPDF from './readPDF.js';
import readWriteFile from './readWriteFile.js';
import removeDuplicates from './removeDuplicates.js';
import renameKeys from './renameKeys.js';
import respondToWebhook from './respondToWebhook.js';
import scheduleTrigger from './scheduleTrigger.js';
import set from './set.js';
import sort from './sort.js';
import splitInBatches from './splitInBatches.js';
import spreadsheetFile from './spreadsheetFile.js';
import splitOut from './splitOut.js';
import stopAndError from './stopAndError.js';
import summarize from './summarize.js';
import switchNode from './switch.js';
import totp from './totp.js';
import wait from './wait.js';
import webhook from './webhook.js';
import xml from './xml.js';

const ALL: NodeType[] = [
  aggregate,
  code,
  compareDatasets,
  compression,
  convertToFile,
  crypto,
  dataTable,
  jwt,
  moveBinaryData,
  totp,
  readPDF,
  readWriteFile,
  spreadsheetFile,
  cron,
  dateTime,
  removeDuplicates,
  sort,
  summarize,
  errorTrigger,
  executeWorkflow,
  executeWorkflowTrigger,
  executionData,
  extractFromFile,
  filter,
  fn,
  functionItem,
  html,
  httpRequest,
  ifNode,
  itemLists,
  limit,
  manualTrigger,
  markdown,
  merge,
  n8nTrainingCustomerDatastore,
  noOp,
  renameKeys,
  respondToWebhook,
  scheduleTrigger,
  set,
  splitInBatches,
  splitOut,
  stopAndError,
  switchNode,
  wait,
  webhook,
  xml,
  // Hamlet's sibling services, over their HTTP APIs and the platform event bus.
  hamletBlog,
  hamletCommunity,
  hamletCommunityTrigger,
  hamletHome,
  hamletHomeTrigger,
  hamletMail,
  hamletMailTrigger,
];

const byType = new Map<string, NodeType>();
for (const t of ALL) for (const name of t.types) byType.set(name, t);

export const nodeRegistry = {
  get: (type: string): NodeType | undefined => byType.get(type),
  /** Every type name the engine runs (the oracle coverage test checks each has a recorded case). */
  types: (): string[] => [...byType.keys()],
};

/**
 * The first node type neither n8n 2.8.4 nor this engine knows (n8n then refuses to activate or
 * run the workflow: "Unrecognized node type: …"); undefined when there is none.
 */
export function unknownNodeType(wf: WorkflowDefinition): string | undefined {
  return wf.nodes.find((n) => !byType.has(n.type) && !N8N_NODE_TYPES.has(n.type))?.type;
}
