// Decorator metadata must exist before any entity or GraphQL type class is evaluated.
import 'reflect-metadata';
import { recordAnswersTo } from './openapi/recorder.js';

// OPENAPI_RECORD=<dir>: every REST v5 answer of the run is kept there for test/openapi.test.ts.
if (process.env.OPENAPI_RECORD) recordAnswersTo(process.env.OPENAPI_RECORD);
