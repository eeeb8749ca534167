// Decorator metadata must exist before any entity or GraphQL type class is evaluated.
import 'reflect-metadata';
